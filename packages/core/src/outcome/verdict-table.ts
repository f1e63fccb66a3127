import { VERDICT_RULES, type VerdictRule } from "./verdict-rules";

/** A verdict rule with the prose the docs print for it. */
export interface VerdictRow extends VerdictRule {
  /** The signal column, in wire terms. */
  readonly signal: string;
  /** Why this signal means this verdict. */
  readonly description: string;
  /** What was decided where DESIGN.md is ambiguous or silent. */
  readonly decision?: string;
}

type RowProse = Pick<VerdictRow, "signal" | "description" | "decision">;

// Keyed by rule id, in the rules' order. Kept out of verdict-rules.ts so the
// classifier (and every app's bundle) carries none of it.
const PROSE: Readonly<Record<string, RowProse>> = {
  "http-unauthorized": {
    signal: "HTTP 401/403",
    description: "Credentials were refused: wait until the app re-authenticates, then send the same request.",
  },
  "degraded-finished-asked-again": {
    signal:
      "RUN_FINISHED after our resume still asking our question (our interrupt, or one for the same tool call), and no result of it (no contract)",
    description:
      "The server did not take the answer: it asks again. Agent Framework 1.7.0 does so when one resume approves one call and rejects another: neither runs, and the rejected one is asked again.",
    decision:
      "Needs you, the answer kept, for approvals and rejections alike: a rejection the server asks about again was not delivered.",
  },
  "degraded-finished-batch-skipped": {
    signal:
      "RUN_FINISHED after a resume with several answers, the streamed thread showing what became of another answer of it and nothing of ours (no contract)",
    description:
      "The server took only part of the resume: Agent Framework 1.0.1 reads the first entry and leaves the others unrun and still open.",
    decision:
      "Needs you, the answer kept: nothing ran for it, and sending the same body again would not deliver it (the server still reads only the first entry), so the person sends it again on its own. Checked before every other finished row, for approvals and rejections alike: a rejection left unread is not delivered either.",
  },
  "degraded-finished-rejected": {
    signal:
      "RUN_FINISHED after our approval, the streamed thread showing the server's rejection marker (no contract)",
    description: "A rejection resolved the call first; the run finished without running the tool.",
  },
  "degraded-finished-not-run": {
    signal:
      "RUN_FINISHED after our approval, the streamed thread showing the server's marker that the tool never started (no contract)",
    description:
      'An unknown tool or refused arguments ("Unknown tool name", "is not a valid tool", "Requested function not found") is written before the body runs: nothing ran.',
    decision: "Needs you, the answer kept: nothing may have run, so neither lost nor applied.",
  },
  "degraded-finished-without-result": {
    signal:
      "RUN_FINISHED after our approval, the streamed thread showing no tool result, or only a may-have-run error marker (no contract)",
    description:
      'A finished run is not evidence that the tool ran: Agent Framework 1.0.1 finishes with "Error: Function failed." when the tool is unavailable, and nothing ran.',
    decision: "Lost, the answer kept: the marker cannot say whether the body started, so never applied.",
  },
  "degraded-finished-decline-ran": {
    signal:
      "RUN_FINISHED after our rejection or cancel, the streamed thread showing the tool's own result (no contract)",
    description:
      "An approval resolved the call first and the tool ran: ag-ui-langgraph 0.0.47 answers a resume on a thread with no open interrupt with a plain RUN_FINISHED, whatever it says.",
  },
  "degraded-finished-decline-may-have-run": {
    signal:
      "RUN_FINISHED after our rejection or cancel, the streamed thread showing an error marker written once the tool started (no contract)",
    description:
      "Someone approved and the tool failed or was cut off: it may have run, as a hydration showing the same says.",
  },
  "run-finished": {
    signal: "RUN_FINISHED after our resume, or with x-resume.replayed",
    description: "The run that carried the answer finished, or the server replayed the recorded outcome.",
  },
  "run-started-contract": {
    signal: "RUN_STARTED (x-resume.ack = claimed)",
    description: "Not an outcome: the claim ack moves the entry to streaming; from here a break re-attaches.",
    decision: "RUN_STARTED without the ack is read as not acked: a break then retries with the same key.",
  },
  "degraded-run-started": {
    signal: "RUN_STARTED after our resume (no contract)",
    description:
      "The server consumed the answer and runs the tool: from here a failure is not a plain retry but a reconciliation.",
  },
  "degraded-invalid-indeterminate": {
    signal: 'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "indeterminate"',
    description: "The server folds an interrupted tool into INVALID: the tool may have run.",
    decision:
      "Checked before the other INVALID texts: a message naming several cases ends in the safest verdict.",
  },
  "degraded-invalid-conflicts": {
    signal: 'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "conflicts"',
    description: "A different decision was already taken for the interrupt.",
  },
  "degraded-invalid-in-flight": {
    signal:
      'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "not pending", "in progress" or "already being processed"',
    description:
      "Another submission is in flight (or was just consumed); an identical retry is replayed or settles once it ends.",
    decision: "Bounded by the retry budget, whose exhaustion reconciles by hydration.",
  },
  "cancelled-ours": {
    signal: "RUN_ERROR APPROVAL_RESUME_CANCELLED after a cancel we sent",
    description: "Servers without the contract report an accepted cancellation as an error.",
  },
  "cancelled-not-ours": {
    signal: "RUN_ERROR APPROVAL_RESUME_CANCELLED when we did not cancel",
    description: "Someone else cancelled the interrupt before our answer arrived.",
    decision:
      "DESIGN.md names CANCELLED only for our own cancel; anyone else's cancel resolved the interrupt first.",
  },
  "already-resolved": {
    signal: "RUN_ERROR APPROVAL_RESUME_ALREADY_RESOLVED",
    description: "A different decision resolved the occurrence; the recorded decision rides along.",
    decision: "Also as the code of an HTTP error body: the code outranks the status (except 401/403).",
  },
  "in-progress": {
    signal: "RUN_ERROR APPROVAL_RESUME_IN_PROGRESS",
    description: "Another submission holds the claim: follow the claiming run if named, else back off.",
  },
  "background-poll-in-progress": {
    signal: "BACKGROUND_POLL_IN_PROGRESS",
    description: "A concurrent poll of the same token won; poll again later.",
  },
  "batch-indeterminate": {
    signal:
      "RUN_ERROR APPROVAL_RESUME_INDETERMINATE answering a request that carried several answers of one run",
    description:
      "One tool of the batch was cut off mid-execution; the others rolled back (their questions open again, stored results kept). The code names no answer, so the thread is read for each one's own evidence.",
    decision:
      "Each answer its own verdict: a tool result → applied; the question no longer open with no result → lost; open with nothing run → needs you (hydrated-batch-cut-still-open).",
  },
  indeterminate: {
    signal: "…_INDETERMINATE (APPROVAL_RESUME_INDETERMINATE, BACKGROUND_TOOL_RESULT_INDETERMINATE)",
    description:
      "A tool was cut off mid-execution with no stored result: it may have run. Never retried automatically.",
  },
  "background-delivery-rejected": {
    signal: "BACKGROUND_TOOL_DELIVERY_REJECTED",
    description: "The tool ran but its result was refused for good: the outcome cannot be completed.",
  },
  "background-token-stale": {
    signal: "BACKGROUND_TOKEN_STALE",
    description: "The held continuation token was already advanced: the run status holds the newer token.",
    decision:
      "No dedicated verdict: the status route returns `continuationToken`, so status-then-hydrate covers it; the transport keeps polling with the newer token.",
  },
  "background-token-unknown": {
    signal: "BACKGROUND_TOKEN_UNKNOWN",
    description:
      "The server no longer knows the token (retention passed): reconcile from status, then the thread.",
    decision: "DESIGN.md is silent; treated like a stale token, since a re-poll could not succeed either.",
  },
  "not-found-never-sent": {
    signal: "APPROVAL_RESUME_NOT_FOUND, never sent before",
    description: "The interrupt was never pending here: the card is stale. Hydrate to show what is open.",
  },
  "not-found-after-send": {
    signal: "APPROVAL_RESUME_NOT_FOUND after our own earlier send",
    description:
      "The answer may have been consumed by an earlier attempt (servers without the contract answer NOT_FOUND on every retry): never read it as never pending.",
  },
  "tool-unavailable": {
    signal: "RUN_ERROR APPROVAL_TOOL_UNAVAILABLE",
    description: "The approved tool could not be reached; nothing ran.",
  },
  "rejected-code": {
    signal: "…_EXPIRED, …_REQUIRED, …_MISSING_INTERRUPT, …_INVALID, …_INVALID_RESPONSE",
    description: "The request itself cannot succeed as is; never retried automatically.",
    decision:
      "On a server without the contract, an APPROVAL_RESUME_INVALID whose message matches none of the known texts lands here.",
  },
  "pydantic-ai-not-waiting-first-send": {
    signal:
      'RUN_ERROR "… that the stored conversation is not waiting on …" from pydantic-ai (interrupt id int-<toolCallId>), on a first send',
    description:
      "pydantic-ai refuses a resume for a call its stored conversation no longer waits on, and runs nothing: another answer came first.",
    decision:
      "Detected from what the server serves (pydantic-ai names its interrupts int-<toolCallId>); outranks RUN_STARTED, which pydantic-ai sends before this error.",
  },
  "pydantic-ai-not-waiting-after-send": {
    signal: "the same RUN_ERROR from pydantic-ai after an earlier send of this answer",
    description:
      "Our earlier send or another device answered it; a finished pydantic-ai conversation cannot be hydrated, so nothing shows whether the tool ran.",
    decision: "Lost, answer kept, rather than applied: no evidence says the tool ran.",
  },
  "pydantic-ai-history-missing": {
    signal:
      'RUN_ERROR "Tool call results were provided, but the message history is empty." (or "Processed history cannot be empty.") from pydantic-ai',
    description:
      "pydantic-ai with the conversation held by the client refuses a request without it, before any tool runs; no resend of the answer alone can succeed.",
    decision:
      "Needs you, without a hydration (which fails the same way): resending or hydrating here looped without end (16,511 POSTs in about 50 s).",
  },
  "degraded-error-after-run-started": {
    signal: "RUN_ERROR (an exception name, or no code) after RUN_STARTED (no contract)",
    description:
      "The tool may have run and the server keeps no claim to roll back: a retry could run it twice, so read the thread.",
    decision:
      "Below every specific code: Agent Framework 1.7.0 sends RUN_STARTED before its APPROVAL_* errors too, so APPROVAL_TOOL_UNAVAILABLE, NOT_FOUND and the rejection and expiry codes decide even after it.",
  },
  "run-error-after-claim": {
    signal: "any other RUN_ERROR after the claim ack",
    description:
      "The server rolled the claim back keeping stored tool results: a same-key retry never re-executes.",
    decision:
      "An unknown code after the claim retries too: the contract makes the retry safe, the retry budget ends it, and the raw message is kept in lastError.",
  },
  "degraded-exception-before-run-started": {
    signal: "RUN_ERROR with an exception-name code (not APPROVAL_*) before RUN_STARTED (no contract)",
    description:
      "Agent Framework reports a failing tool or model call by exception name, and it may already have consumed the answer: an identical resume is answered from its own records (NOT_FOUND, replay or INVALID), never run again.",
    decision:
      "DESIGN.md's unknown-code rule is for servers with the contract. Without it these codes are routine, and the retry is what makes the server say what became of the answer; the retry budget bounds it.",
  },
  "run-error-unknown": {
    signal: "RUN_ERROR with an unknown (or no) code before the claim",
    description: "Never dropped, never silently retried forever: the raw code and message are kept.",
  },
  "http-transient": {
    signal: "HTTP 5xx, 429, 409 (also 408, 425)",
    description: "Transient refusal: retry with the same key, no sooner than Retry-After.",
    decision: "408 Request Timeout and 425 Too Early are transient by definition and join the list.",
  },
  "http-rejected": {
    signal: "HTTP 400/422 (e.g. IDEMPOTENCY_KEY_REUSED)",
    description: "The request is malformed or the key was reused with another body: resending cannot help.",
  },
  "http-unexpected": {
    signal: "any other HTTP status (404, 405, 413, …)",
    description: "A status the contract does not use for resumes: kept raw, never silently retried.",
    decision: "DESIGN.md is silent on other statuses; they follow the unknown-code rule.",
  },
  "break-before-ack": {
    signal:
      "network error, EOF or heartbeat timeout before the claim ack (before RUN_STARTED without the contract)",
    description: "Nothing was claimed (or nothing ran): resend the same bytes with the same key.",
  },
  "break-after-ack": {
    signal: "network error, EOF or heartbeat timeout after the claim ack",
    description: "The run keeps going server-side: re-attach with Last-Event-ID.",
  },
  "degraded-break-after-tool-results": {
    signal:
      "network error, EOF, heartbeat timeout or unreadable stream after RUN_STARTED, the stream having carried the tool result of every answer the request held (no contract)",
    description:
      "A seen tool result is evidence that the tool ran, even when the end of the run never arrives: pydantic-ai answers every later hydration of the finished conversation with a RUN_ERROR, so the thread cannot say more.",
    decision:
      "Applied, saying the end of the run was not seen; never resent (a resend runs the tool again there). Only when every answer of the request shows its own result, so each answer sent with it is applied by its own evidence.",
  },
  "degraded-break-after-run-started": {
    signal: "network error, EOF, heartbeat timeout or unreadable stream after RUN_STARTED (no contract)",
    description: "The tool ran and there is no re-attach route: read the thread instead of resending.",
  },
  "invalid-stream-before-ack": {
    signal: "unreadable 200 (not an event stream, malformed SSE, invalid JSON, invalid event) before the ack",
    description:
      "Nothing was claimed: resend the same bytes; a proxy page or a truncated frame is usually transient.",
    decision:
      "DESIGN.md is silent. Retried like a break, bounded by the retry budget (whose exhaustion reconciles by hydration); the typed error is kept in lastError.",
  },
  "invalid-stream-after-ack": {
    signal: "unreadable stream after the claim ack",
    description:
      "The run holds our claim; the run status carries its terminal event without re-reading the stream.",
    decision:
      "DESIGN.md is silent. Re-attaching would replay the same unreadable frame, so read the status route instead.",
  },
  "reattach-gone": {
    signal: "re-attach answered 404 or 410",
    description: "The event log is unknown or expired: read the run status, then hydrate the thread.",
  },
  "status-running": {
    signal: "run status: running (no terminal event yet)",
    description:
      "The run holds the claim and has not ended: back off, then a same-key retry replays it or says in progress.",
    decision: "DESIGN.md is silent; a same-key retry is the contract's way to get a recorded outcome.",
  },
  "status-not-found": {
    signal: "run status: 404",
    description: "The server forgot the run: only the thread can tell.",
  },
  "hydrated-never-sent-closed": {
    signal:
      "hydration for an answer never sent (held for the others of its run): the question is no longer open",
    description: "The question was answered on another device, or cancelled, before this answer left.",
    decision:
      "Nothing was sent from here, so whatever ran was not this answer; read on focus, reconnect and the server's return.",
  },
  "hydrated-approve-tool-result": {
    signal: "hydration after an approval: the thread shows the tool's own result",
    description: "The approved tool ran: the answer took effect.",
    decision:
      "A tool message is evidence only when it is not the server's rejection or error marker (tool-evidence.ts names each marker and the release that writes it).",
  },
  "hydrated-approve-rejected": {
    signal: "hydration after an approval: the thread shows the server's rejection marker for the call",
    description:
      "Another device rejected first (Agent Framework stores a rejection as a tool message): nothing ran.",
  },
  "hydrated-batch-cut-still-open": {
    signal:
      "hydration after a batch answered APPROVAL_RESUME_INDETERMINATE: this answer's question still open, no tool result",
    description:
      "The cut-off tool was another answer's: this one rolled back to PENDING (a result its tool left is kept there and re-used, never run again), so it is not lost.",
    decision:
      "Needs you, the answer kept, never retried as is: the same body carries the cut-off answer, which the server refuses for good (INDETERMINATE is never retried automatically), so the person sends this one again on its own.",
  },
  "hydrated-approve-nothing-ran": {
    signal:
      "hydration of an approval whose every attempt the server answered APPROVAL_TOOL_UNAVAILABLE: the question still open, no tool result",
    description:
      'The server\'s explicit "nothing ran" is evidence, whatever RUN_STARTED suggested (Agent Framework 1.7.0 answers RUN_STARTED, then APPROVAL_TOOL_UNAVAILABLE): the answer is still sendable.',
    decision:
      'Retry with the same key, never lost; once the budget is spent again the entry stalls (not final, "try again"), and resumes with the same bytes.',
  },
  "hydrated-approve-nothing-ran-closed": {
    signal:
      "hydration of an approval whose every attempt the server answered APPROVAL_TOOL_UNAVAILABLE: the question no longer open, no tool result",
    description:
      "Nothing of this answer ran, and the question closed without it (expired, or answered elsewhere).",
    decision: "Needs you, the answer kept: not lost, since the server said each time that nothing ran.",
  },
  "pydantic-ai-open-after-cut": {
    signal: "hydration after RUN_STARTED and a cut: the pydantic-ai question still open, no tool result",
    description:
      "pydantic-ai saves the conversation only when a run ends, so a run cut after RUN_STARTED leaves the question open although the tool may have run; an identical resend runs it again.",
    decision: "Lost, answer kept, never resent: the open question is not evidence that nothing ran.",
  },
  "hydrated-approve-still-open": {
    signal: "hydration after the first attempt of an approval: the question still open, no tool result",
    description:
      "The server released the answer (a failure before the tool, or a claim rolled back): the same submission is sent once more.",
    decision:
      '"Lost" needs evidence the tool may have run. On a server without the contract only a never-sent answer is retried (Agent Framework 1.0.1 shows a consumed question as open). The retry budget (server failures only) and the stall brake it.',
  },
  "hydrated-approve-not-run": {
    signal: "hydration after an approval: the thread holds the server's marker that the tool never started",
    description:
      "The server refused the call before its body ran (unknown tool, bad arguments): nothing ran.",
    decision:
      "Needs you, the answer kept; an interrupt still open is retried instead (hydrated-approve-still-open).",
  },
  "hydrated-approve-no-tool-result": {
    signal: "hydration after an approval: no tool result, or only a may-have-run error marker, in the thread",
    description:
      "The answer may have been consumed without a visible result, or the tool failed: keep it and tell the person.",
    decision: "An interrupt still open with nothing run is retried instead (hydrated-approve-still-open).",
  },
  "hydrated-decline-tool-result": {
    signal: "hydration after a reject or cancel: the thread shows the tool result",
    description: "The tool ran, so someone approved: our reject or cancel did not decide.",
    decision:
      "DESIGN.md speaks of the tool result only; a reject or cancel never leaves one, so the rule is mirrored.",
  },
  "hydrated-decline-may-have-run": {
    signal:
      "hydration after a reject or cancel: the thread shows an error marker written once the tool started",
    description: "Someone approved and the tool failed or was cut off: it may have run.",
  },
  "hydrated-decline-rejected": {
    signal: "hydration after a reject or cancel: the thread shows the server's rejection marker",
    description: "The rejection is recorded and the tool did not run: the answer took effect.",
    decision:
      "Whether the interrupt still shows as open does not matter: the recorded rejection closed the call.",
  },
  "hydrated-decline-closed": {
    signal: "hydration after a reject or cancel: interrupt closed, no tool result",
    description: "The interrupt closed without the tool running: the reject or cancel took effect.",
  },
  "hydrated-decline-still-open": {
    signal: "hydration after a reject or cancel: interrupt still open",
    description:
      "The server refused the answer yet still shows the question: keep the answer and tell the person.",
  },
  "retry-budget-exhausted": {
    signal: "the retry budget ran out",
    description: "Stop sending; an earlier attempt may still have taken effect, so the thread decides.",
    decision:
      "DESIGN.md is silent; hydrating keeps the promise that an unknown outcome is never reported as a failure to send.",
  },
};

/**
 * DESIGN.md's verdict table as data: the classifier's rules (VERDICT_RULES, the
 * same objects' behaviour, first match wins) with their prose, for the docs.
 */
export const VERDICT_TABLE: readonly VerdictRow[] = VERDICT_RULES.map((rule) => {
  const prose = PROSE[rule.id];
  // A rule without prose would print as an empty row: refuse it where the docs are built.
  if (prose === undefined) throw new Error(`Verdict rule ${rule.id} has no prose in verdict-table.ts.`);
  return { ...rule, ...prose };
});
// Prose left behind by a renamed or removed rule (rule ids are unique: classify.test.ts).
if (Object.keys(PROSE).length !== VERDICT_TABLE.length) {
  throw new Error("verdict-table.ts has prose for a rule that does not exist.");
}
