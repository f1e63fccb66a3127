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

// [signal, description, decision?] by rule id, in the rules' order. Kept out of
// verdict-rules.ts so the classifier (and every app's bundle) carries none of it.
// biome-ignore format: one rule per row, each cell on a line
const PROSE: Readonly<Record<string, readonly [string, string, string?]>> = {
  "http-unauthorized": ["HTTP 401/403",
    "Credentials were refused: wait until the app re-authenticates, then send the same request."],
  "degraded-finished-asked-again": [
    "RUN_FINISHED after our resume still asking our question (our interrupt, or one for the same tool call), and no result of it (no contract)",
    "The server did not take the answer: it asks again. Agent Framework 1.7.0 does so when one resume approves one call and rejects another: neither runs, and the rejected one is asked again.",
    "Needs you, the answer kept, for approvals and rejections alike: a rejection the server asks about again was not delivered."],
  "degraded-finished-batch-skipped": [
    "RUN_FINISHED after a resume with several answers, the streamed thread showing what became of another answer of it and nothing of ours (no contract)",
    "The server took only part of the resume: Agent Framework 1.0.1 reads the first entry and leaves the others unrun and still open.",
    "Needs you, the answer kept: nothing ran for it, and sending the same body again would not deliver it (the server still reads only the first entry), so the person sends it again on its own. Checked before every other finished row, for approvals and rejections alike: a rejection left unread is not delivered either."],
  "degraded-finished-rejected": [
    "RUN_FINISHED after our approval, the streamed thread showing the server's rejection marker (no contract)",
    "A rejection resolved the call first; the run finished without running the tool."],
  "degraded-finished-not-run": [
    "RUN_FINISHED after our approval, the streamed thread showing the server's marker that the tool never started (no contract)",
    "An unknown tool or refused arguments (\"Unknown tool name\", \"is not a valid tool\", \"Requested function not found\") is written before the body runs: nothing ran.",
    "Needs you, the answer kept: nothing may have run, so neither lost nor applied."],
  "degraded-finished-without-result": [
    "RUN_FINISHED after our approval, the streamed thread showing no tool result, or only a may-have-run error marker (no contract)",
    "A finished run is not evidence that the tool ran: Agent Framework 1.0.1 finishes with \"Error: Function failed.\" when the tool is unavailable, and nothing ran.",
    "Lost, the answer kept: the marker cannot say whether the body started, so never applied."],
  "degraded-finished-decline-ran": [
    "RUN_FINISHED after our rejection or cancel, the streamed thread showing the tool's own result (no contract)",
    "An approval resolved the call first and the tool ran: ag-ui-langgraph 0.0.47 answers a resume on a thread with no open interrupt with a plain RUN_FINISHED, whatever it says."],
  "degraded-finished-decline-may-have-run": [
    "RUN_FINISHED after our rejection or cancel, the streamed thread showing an error marker written once the tool started (no contract)",
    "Someone approved and the tool failed or was cut off: it may have run, as a hydration showing the same says."],
  "run-finished": ["RUN_FINISHED after our resume, or with x-resume.replayed",
    "The run that carried the answer finished, or the server replayed the recorded outcome."],
  "run-started-contract": ["RUN_STARTED (x-resume.ack = claimed)",
    "Not an outcome: the claim ack moves the entry to streaming; from here a break re-attaches.",
    "RUN_STARTED without the ack is read as not acked: a break then retries with the same key."],
  "degraded-run-started": ["RUN_STARTED after our resume (no contract)",
    "The server consumed the answer and runs the tool: from here a failure is not a plain retry but a reconciliation."],
  "degraded-invalid-indeterminate": ["RUN_ERROR APPROVAL_RESUME_INVALID mentioning \"indeterminate\"",
    "The server folds an interrupted tool into INVALID: the tool may have run.",
    "Checked before the other INVALID texts: a message naming several cases ends in the safest verdict."],
  "degraded-invalid-conflicts": ["RUN_ERROR APPROVAL_RESUME_INVALID mentioning \"conflicts\"",
    "A different decision was already taken for the interrupt."],
  "degraded-invalid-in-flight": [
    "RUN_ERROR APPROVAL_RESUME_INVALID mentioning \"not pending\", \"in progress\" or \"already being processed\"",
    "Another submission is in flight (or was just consumed); an identical retry is replayed or settles once it ends.",
    "Bounded by the retry budget, whose exhaustion reconciles by hydration."],
  "cancelled-ours": ["RUN_ERROR APPROVAL_RESUME_CANCELLED after a cancel we sent",
    "Servers without the contract report an accepted cancellation as an error."],
  "cancelled-not-ours": ["RUN_ERROR APPROVAL_RESUME_CANCELLED when we did not cancel",
    "Someone else cancelled the interrupt before our answer arrived.",
    "DESIGN.md names CANCELLED only for our own cancel; anyone else's cancel resolved the interrupt first."],
  "already-resolved": ["RUN_ERROR APPROVAL_RESUME_ALREADY_RESOLVED",
    "A different decision resolved the occurrence; the recorded decision rides along.",
    "Also as the code of an HTTP error body: the code outranks the status (except 401/403)."],
  "in-progress": ["RUN_ERROR APPROVAL_RESUME_IN_PROGRESS",
    "Another submission holds the claim: follow the claiming run if named, else back off."],
  "background-poll-in-progress": ["BACKGROUND_POLL_IN_PROGRESS",
    "A concurrent poll of the same token won; poll again later."],
  "batch-indeterminate": [
    "RUN_ERROR APPROVAL_RESUME_INDETERMINATE answering a request that carried several answers of one run",
    "One tool of the batch was cut off mid-execution; the others rolled back (their questions open again, stored results kept). The code names no answer, so the thread is read for each one's own evidence.",
    "Each answer its own verdict: a tool result → applied; the question no longer open with no result → lost; open with nothing run → needs you (hydrated-batch-cut-still-open)."],
  "indeterminate": ["…_INDETERMINATE (APPROVAL_RESUME_INDETERMINATE, BACKGROUND_TOOL_RESULT_INDETERMINATE)",
    "A tool was cut off mid-execution with no stored result: it may have run. Never retried automatically."],
  "background-delivery-rejected": ["BACKGROUND_TOOL_DELIVERY_REJECTED",
    "The tool ran but its result was refused for good: the outcome cannot be completed."],
  "background-token-stale": ["BACKGROUND_TOKEN_STALE",
    "The held continuation token was already advanced: the run status holds the newer token.",
    "No dedicated verdict: the status route returns `continuationToken`, so status-then-hydrate covers it; the transport keeps polling with the newer token."],
  "background-token-unknown": ["BACKGROUND_TOKEN_UNKNOWN",
    "The server no longer knows the token (retention passed): reconcile from status, then the thread.",
    "DESIGN.md is silent; treated like a stale token, since a re-poll could not succeed either."],
  "not-found-never-sent": ["APPROVAL_RESUME_NOT_FOUND, never sent before",
    "The interrupt was never pending here: the card is stale. Hydrate to show what is open."],
  "not-found-after-send": ["APPROVAL_RESUME_NOT_FOUND after our own earlier send",
    "The answer may have been consumed by an earlier attempt (servers without the contract answer NOT_FOUND on every retry): never read it as never pending."],
  "tool-unavailable": ["RUN_ERROR APPROVAL_TOOL_UNAVAILABLE",
    "The approved tool could not be reached; nothing ran."],
  "rejected-code": ["…_EXPIRED, …_REQUIRED, …_MISSING_INTERRUPT, …_INVALID, …_INVALID_RESPONSE",
    "The request itself cannot succeed as is; never retried automatically.",
    "On a server without the contract, an APPROVAL_RESUME_INVALID whose message matches none of the known texts lands here."],
  "pydantic-ai-not-waiting-first-send": [
    "RUN_ERROR \"… that the stored conversation is not waiting on …\" from pydantic-ai (interrupt id int-<toolCallId>), on a first send",
    "pydantic-ai refuses a resume for a call its stored conversation no longer waits on, and runs nothing: another answer came first.",
    "Detected from what the server serves (pydantic-ai names its interrupts int-<toolCallId>); outranks RUN_STARTED, which pydantic-ai sends before this error."],
  "pydantic-ai-not-waiting-after-send": [
    "the same RUN_ERROR from pydantic-ai after an earlier send of this answer",
    "Our earlier send or another device answered it; a finished pydantic-ai conversation cannot be hydrated, so nothing shows whether the tool ran.",
    "Lost, answer kept, rather than applied: no evidence says the tool ran."],
  "pydantic-ai-history-missing": [
    "RUN_ERROR \"Tool call results were provided, but the message history is empty.\" (or \"Processed history cannot be empty.\") from pydantic-ai",
    "pydantic-ai with the conversation held by the client refuses a request without it, before any tool runs; no resend of the answer alone can succeed.",
    "Needs you, without a hydration (which fails the same way): resending or hydrating here looped without end (16,511 POSTs in about 50 s)."],
  "degraded-error-after-run-started": [
    "RUN_ERROR (an exception name, or no code) after RUN_STARTED (no contract)",
    "The tool may have run and the server keeps no claim to roll back: a retry could run it twice, so read the thread.",
    "Below every specific code: Agent Framework 1.7.0 sends RUN_STARTED before its APPROVAL_* errors too, so APPROVAL_TOOL_UNAVAILABLE, NOT_FOUND and the rejection and expiry codes decide even after it."],
  "run-error-after-claim": ["any other RUN_ERROR after the claim ack",
    "The server rolled the claim back keeping stored tool results: a same-key retry never re-executes.",
    "An unknown code after the claim retries too: the contract makes the retry safe, the retry budget ends it, and the raw message is kept in lastError."],
  "degraded-exception-before-run-started": [
    "RUN_ERROR with an exception-name code (not APPROVAL_*) before RUN_STARTED (no contract)",
    "Agent Framework reports a failing tool or model call by exception name, and it may already have consumed the answer: an identical resume is answered from its own records (NOT_FOUND, replay or INVALID), never run again.",
    "DESIGN.md's unknown-code rule is for servers with the contract. Without it these codes are routine, and the retry is what makes the server say what became of the answer; the retry budget bounds it."],
  "run-error-unknown": ["RUN_ERROR with an unknown (or no) code before the claim",
    "Never dropped, never silently retried forever: the raw code and message are kept."],
  "http-transient": ["HTTP 5xx, 429, 409 (also 408, 425)",
    "Transient refusal: retry with the same key, no sooner than Retry-After.",
    "408 Request Timeout and 425 Too Early are transient by definition and join the list."],
  "http-rejected": ["HTTP 400/422 (e.g. IDEMPOTENCY_KEY_REUSED)",
    "The request is malformed or the key was reused with another body: resending cannot help."],
  "http-unexpected": ["any other HTTP status (404, 405, 413, …)",
    "A status the contract does not use for resumes: kept raw, never silently retried.",
    "DESIGN.md is silent on other statuses; they follow the unknown-code rule."],
  "break-before-ack": [
    "network error, EOF or heartbeat timeout before the claim ack (without the contract: before the response's status)",
    "Nothing was claimed (or nothing ran): resend the same bytes with the same key.",
    "Without the contract a 200 cut before RUN_STARTED counts as after it: Chromium drops the frames it buffered when the socket resets, so a RUN_STARTED the server sent may never be read."],
  "break-after-ack": ["network error, EOF or heartbeat timeout after the claim ack",
    "The run keeps going server-side: re-attach with Last-Event-ID."],
  "degraded-break-after-tool-results": [
    "network error, EOF, heartbeat timeout or unreadable stream after RUN_STARTED, the stream having carried the tool result of every answer the request held (no contract)",
    "A seen tool result is evidence that the tool ran, even when the end of the run never arrives: pydantic-ai answers every later hydration of the finished conversation with a RUN_ERROR, so the thread cannot say more.",
    "Applied, saying the end of the run was not seen; never resent (a resend runs the tool again there). Only when every answer of the request shows its own result, so each answer sent with it is applied by its own evidence."],
  "degraded-break-after-run-started": [
    "network error, EOF, heartbeat timeout or unreadable stream after RUN_STARTED, or after a 200 (no contract)",
    "The tool ran and there is no re-attach route: read the thread instead of resending."],
  "invalid-stream-before-ack": [
    "unreadable 200 (not an event stream, malformed SSE, invalid JSON, invalid event) before the ack",
    "Nothing was claimed: resend the same bytes; a proxy page or a truncated frame is usually transient.",
    "DESIGN.md is silent. Retried like a break, bounded by the retry budget (whose exhaustion reconciles by hydration); the typed error is kept in lastError."],
  "invalid-stream-after-ack": ["unreadable stream after the claim ack",
    "The run holds our claim; the run status carries its terminal event without re-reading the stream.",
    "DESIGN.md is silent. Re-attaching would replay the same unreadable frame, so read the status route instead."],
  "reattach-gone": ["re-attach answered 404 or 410",
    "The event log is unknown or expired: read the run status, then hydrate the thread."],
  "status-running": ["run status: running (no terminal event yet)",
    "The run holds the claim and has not ended: back off, then a same-key retry replays it or says in progress.",
    "DESIGN.md is silent; a same-key retry is the contract's way to get a recorded outcome."],
  "status-not-found": ["run status: 404", "The server forgot the run: only the thread can tell."],
  "hydrated-never-sent-closed": [
    "hydration for an answer never sent (held for the others of its run): the question is no longer open",
    "The question was answered on another device, or cancelled, before this answer left.",
    "Nothing was sent from here, so whatever ran was not this answer; read on focus, reconnect and the server's return."],
  "hydrated-approve-tool-result": ["hydration after an approval: the thread shows the tool's own result",
    "The approved tool ran: the answer took effect.",
    "A tool message is evidence only when it is not the server's rejection or error marker (tool-evidence.ts names each marker and the release that writes it)."],
  "hydrated-approve-rejected": [
    "hydration after an approval: the thread shows the server's rejection marker for the call",
    "Another device rejected first (Agent Framework stores a rejection as a tool message): nothing ran."],
  "hydrated-batch-cut-still-open": [
    "hydration after a batch answered APPROVAL_RESUME_INDETERMINATE: this answer's question still open, no tool result",
    "The cut-off tool was another answer's: this one rolled back to PENDING (a result its tool left is kept there and re-used, never run again), so it is not lost.",
    "Needs you, the answer kept, never retried as is: the same body carries the cut-off answer, which the server refuses for good (INDETERMINATE is never retried automatically), so the person sends this one again on its own."],
  "hydrated-approve-nothing-ran": [
    "hydration of an approval whose every attempt the server answered APPROVAL_TOOL_UNAVAILABLE: the question still open, no tool result",
    "The server's explicit \"nothing ran\" is evidence, whatever RUN_STARTED suggested (Agent Framework 1.7.0 answers RUN_STARTED, then APPROVAL_TOOL_UNAVAILABLE): the answer is still sendable.",
    "Retry with the same key, never lost; once the budget is spent again the entry stalls (not final, \"try again\"), and resumes with the same bytes."],
  "hydrated-approve-nothing-ran-closed": [
    "hydration of an approval whose every attempt the server answered APPROVAL_TOOL_UNAVAILABLE: the question no longer open, no tool result",
    "Nothing of this answer ran, and the question closed without it (expired, or answered elsewhere).",
    "Needs you, the answer kept: not lost, since the server said each time that nothing ran."],
  "pydantic-ai-open-after-cut": [
    "hydration after RUN_STARTED and a cut: the pydantic-ai question still open, no tool result",
    "pydantic-ai saves the conversation only when a run ends, so a run cut after RUN_STARTED leaves the question open although the tool may have run; an identical resend runs it again.",
    "Lost, answer kept, never resent: the open question is not evidence that nothing ran."],
  "hydrated-approve-still-open": [
    "hydration after the first attempt of an approval: the question still open, no tool result",
    "The server released the answer (a failure before the tool, or a claim rolled back): the same submission is sent once more.",
    "\"Lost\" needs evidence the tool may have run. On a server without the contract only a never-sent answer is retried (Agent Framework 1.0.1 shows a consumed question as open). The retry budget (server failures only) and the stall brake it."],
  "hydrated-approve-not-run": [
    "hydration after an approval: the thread holds the server's marker that the tool never started",
    "The server refused the call before its body ran (unknown tool, bad arguments): nothing ran.",
    "Needs you, the answer kept; an interrupt still open is retried instead (hydrated-approve-still-open)."],
  "hydrated-approve-no-tool-result": [
    "hydration after an approval: no tool result, or only a may-have-run error marker, in the thread",
    "The answer may have been consumed without a visible result, or the tool failed: keep it and tell the person.",
    "An interrupt still open with nothing run is retried instead (hydrated-approve-still-open)."],
  "hydrated-decline-tool-result": ["hydration after a reject or cancel: the thread shows the tool result",
    "The tool ran, so someone approved: our reject or cancel did not decide.",
    "DESIGN.md speaks of the tool result only; a reject or cancel never leaves one, so the rule is mirrored."],
  "hydrated-decline-may-have-run": [
    "hydration after a reject or cancel: the thread shows an error marker written once the tool started",
    "Someone approved and the tool failed or was cut off: it may have run."],
  "hydrated-decline-rejected": [
    "hydration after a reject or cancel: the thread shows the server's rejection marker",
    "The rejection is recorded and the tool did not run: the answer took effect.",
    "Whether the interrupt still shows as open does not matter: the recorded rejection closed the call."],
  "hydrated-decline-closed": ["hydration after a reject or cancel: interrupt closed, no tool result",
    "The interrupt closed without the tool running: the reject or cancel took effect."],
  "hydrated-decline-still-open": ["hydration after a reject or cancel: interrupt still open",
    "The server refused the answer yet still shows the question: keep the answer and tell the person."],
  "retry-budget-exhausted": ["the retry budget ran out",
    "Stop sending; an earlier attempt may still have taken effect, so the thread decides.",
    "DESIGN.md is silent; hydrating keeps the promise that an unknown outcome is never reported as a failure to send."],
};

/** DESIGN.md's verdict table as data: the classifier's rules with their prose, for the docs. */
export const VERDICT_TABLE: readonly VerdictRow[] = VERDICT_RULES.map((rule) => {
  const prose = PROSE[rule.id];
  // A rule without prose would print as an empty row: refuse it where the docs are built.
  if (prose === undefined) throw new Error(`Verdict rule ${rule.id} has no prose in verdict-table.ts.`);
  const [signal, description, decision] = prose;
  return { ...rule, signal, description, ...(decision === undefined ? {} : { decision }) };
});
// Prose left behind by a renamed or removed rule (rule ids are unique: classify.test.ts).
if (Object.keys(PROSE).length !== VERDICT_TABLE.length) {
  throw new Error("verdict-table.ts has prose for a rule that does not exist.");
}
