import { OutcomeCode as Code } from "../protocol/outcome-codes";
import type { OutcomeContext } from "./context";
import type { ServerKind } from "./delivery-signal";
import { NOT_TAKEN_ERRORS } from "./not-taken-errors";
import {
  acked,
  all,
  approve,
  closed,
  code,
  decline,
  errorOf,
  evidence,
  fresh,
  invalidSaying,
  notAcked,
  open,
  pydanticAi,
  rule,
  saying,
  suffix,
  type VerdictRule,
  type When,
} from "./verdict-rule";

export { errorOf, type VerdictRule } from "./verdict-rule";

// DESIGN.md's verdict table as the classifier runs it: first match wins.
const BOTH: readonly ServerKind[] = ["contract", "degraded"];
const CONTRACT: readonly ServerKind[] = ["contract"];
const DEGRADED: readonly ServerKind[] = ["degraded"];
const CODED = ["run-error", "http-status"] as const;
const BREAKS = ["network-error", "stream-ended", "stream-stalled"] as const;
const CUTS = [...BREAKS, "invalid-stream"] as const;
const RUN_ERROR = ["run-error"] as const;
const HYDRATED = ["hydrated"] as const;
const FINISHED = ["run-finished"] as const;
const HTTP = ["http-status"] as const;
const INVALID = ["invalid-stream"] as const;
const STATUS = ["run-status"] as const;

const on =
  (test: (context: OutcomeContext) => boolean): When =>
  (_s, c) =>
    test(c);
const nothing = evidence("none", "not_run");
const mayHaveRun = evidence("none", "may_have_run");
const saidNothingRan = on((c) => c.nothingRan === true);

const SENT_AGAIN = "It will be sent again unchanged, with the same idempotency key.";
const LOST =
  "The server cannot tell whether the action ran. Your answer is kept; check the result before answering again.";
/** pydantic-ai's refusal of a resume for a call it no longer waits on (ui/_adapter.py). */
const PYDANTIC_AI_NOT_WAITING = /that the stored conversation is not waiting on\b/;
/** pydantic-ai, history held by the client, given none (_agent_graph.py). */
const PYDANTIC_AI_NO_HISTORY =
  /^(Tool call results were provided, but the message history is empty|Processed history cannot be empty)\./;
const NOT_TAKEN = "this answer was not taken and its action did not run. Your answer is kept; send it again.";
const STILL_OPEN =
  "The question is still open on the server and nothing ran; sending again with the same key.";
const NOT_RUN = {
  reason:
    "The server reported an error before the action could run, so it did not run. Your answer is kept; review it and answer again.",
  hydrate: true,
  error: "The server's marker says the tool never started.",
};
const TOOK_EFFECT = "The answer took effect (confirmed from the conversation).";
const REJECTED_ELSEWHERE =
  "The question was answered differently elsewhere: it was rejected, and the action did not run.";
const ANSWERED_ELSEWHERE = "The question was already answered differently elsewhere.";
const HYDRATING = "checking the conversation for the result.";

// One rule per row, as DESIGN.md prints the table.
// biome-ignore format: a table reads best one rule per row
export const VERDICT_RULES: readonly VerdictRule[] = [
  rule("http-unauthorized", BOTH, "paused", ["http-status"], (s) => s.status === 401 || s.status === 403,
    (s) => ({ kind: "paused", status: s.status === 401 ? 401 : 403,
      reason: "Sign-in is needed before the answer can be sent. It is kept until then.", error: errorOf(s) })),
  rule("degraded-finished-asked-again", DEGRADED, "needs_user", FINISHED,
    (s) => !s.replayed && s.askedAgain === true && s.toolEvidence !== "ran",
    { reason: `The server asks this question again: ${NOT_TAKEN}`, hydrate: true, error: NOT_TAKEN_ERRORS.askedAgain }),
  rule("degraded-finished-batch-skipped", DEGRADED, "needs_user", FINISHED,
    (s) => !s.replayed && s.skippedInBatch === true && s.toolEvidence === "none",
    { reason: `The server took only the other answers sent with it: ${NOT_TAKEN}`, hydrate: true,
      error: NOT_TAKEN_ERRORS.skippedInBatch }),
  rule("degraded-finished-rejected", DEGRADED, "elsewhere", FINISHED, all(approve, fresh, evidence("rejected")),
    REJECTED_ELSEWHERE),
  // The server's own marker says the tool never started: nothing may have run, so not "lost".
  rule("degraded-finished-not-run", DEGRADED, "needs_user", FINISHED, all(approve, fresh, evidence("not_run")),
    NOT_RUN),
  rule("degraded-finished-without-result", DEGRADED, "lost", FINISHED, all(approve, fresh, mayHaveRun), LOST),
  rule("degraded-finished-decline-ran", DEGRADED, "elsewhere", FINISHED, all(decline, fresh, evidence("ran")),
    "The question was answered differently elsewhere: it was approved, and the action ran."),
  // The tool's body started, so someone's approval may have won over ours, or not.
  rule("degraded-finished-decline-may-have-run", DEGRADED, "lost", FINISHED,
    all(decline, fresh, evidence("may_have_run")), LOST),
  rule("run-finished", BOTH, "applied", FINISHED, null, (s) => ({
    kind: "applied", replayed: s.replayed,
    ...(s.originalRunId === undefined ? {} : { originalRunId: s.originalRunId }),
    reason: s.replayed
      ? "The answer had already taken effect; the server replayed its outcome."
      : "The answer took effect.",
    error: null })),
  rule("run-started-contract", CONTRACT, "continue", ["run-started"], null, (s) => ({ kind: "continue",
    acked: s.acked, reason: s.acked ? "The server accepted the answer." : "The run started.", error: null })),
  rule("degraded-run-started", DEGRADED, "continue", ["run-started"], null,
    () => ({ kind: "continue", acked: true, reason: "The server accepted the answer.", error: null })),
  rule("degraded-invalid-indeterminate", DEGRADED, "lost", CODED, invalidSaying(/indeterminate/i), LOST),
  rule("degraded-invalid-conflicts", DEGRADED, "elsewhere", CODED, invalidSaying(/conflict/i),
    ANSWERED_ELSEWHERE),
  rule("degraded-invalid-in-flight", DEGRADED, "retry", CODED,
    invalidSaying(/not pending|in progress|already being processed/i),
    `Another submission for this question is still being processed. ${SENT_AGAIN}`),
  rule("cancelled-ours", BOTH, "applied", CODED, all(code(Code.CANCELLED), on((c) => c.decision === "cancel")),
    "The cancellation took effect."),
  rule("cancelled-not-ours", BOTH, "elsewhere", CODED,
    all(code(Code.CANCELLED), on((c) => c.decision !== "cancel")), "The question was cancelled elsewhere."),
  rule("already-resolved", BOTH, "elsewhere", CODED, code(Code.ALREADY_RESOLVED), ANSWERED_ELSEWHERE),
  rule("in-progress", BOTH, "retry", CODED, code(Code.IN_PROGRESS),
    { reason: `Another submission for this question is in progress. ${SENT_AGAIN}`, follow: true }),
  rule("background-poll-in-progress", BOTH, "retry", CODED, code(Code.BACKGROUND_POLL_IN_PROGRESS),
    "Another poll of this background run is in progress; polling again shortly."),
  // The code names no interrupt: only a hydration tells which answer's question is open again.
  rule("batch-indeterminate", CONTRACT, "hydrate_then_decide", CODED,
    all(on((c) => c.inBatch === true), code(Code.INDETERMINATE)),
    "One action of this batch was cut off; checking the conversation for what each answer did."),
  rule("indeterminate", BOTH, "lost", CODED, suffix("_INDETERMINATE"), LOST),
  rule("background-delivery-rejected", BOTH, "lost", CODED, code(Code.BACKGROUND_TOOL_DELIVERY_REJECTED),
    "The action ran but its result could not be delivered to the agent. Your answer is kept."),
  rule("background-token-stale", BOTH, "status_then_hydrate", CODED, code(Code.BACKGROUND_TOKEN_STALE),
    "The background run moved on; fetching its current state."),
  rule("background-token-unknown", BOTH, "status_then_hydrate", CODED, code(Code.BACKGROUND_TOKEN_UNKNOWN),
    "The server no longer knows this background run's token; fetching its current state."),
  rule("not-found-never-sent", BOTH, "needs_user", CODED,
    all(code(Code.NOT_FOUND), on((c) => !c.sentBefore && !c.acked)), { hydrate: true,
      reason: "This question is no longer open on the server. Your answer is kept; refresh to see what is." }),
  rule("not-found-after-send", BOTH, "hydrate_then_decide", CODED,
    all(code(Code.NOT_FOUND), on((c) => c.sentBefore || c.acked)),
    `The server no longer lists the question after an earlier send; ${HYDRATING}`),
  rule("tool-unavailable", BOTH, "retry", CODED, code(Code.TOOL_UNAVAILABLE),
    { reason: `The action is unavailable right now, and nothing ran. ${SENT_AGAIN}`, nothingRan: true }),
  // A stale card (expired, required, missing) is hydrated; an invalid payload is the answer's own problem.
  rule("rejected-code", BOTH, "needs_user", CODED,
    suffix("_EXPIRED", "_REQUIRED", "_MISSING_INTERRUPT", "_INVALID", "_INVALID_RESPONSE"),
    { reason: "The server cannot accept this answer as it is. Your answer is kept; review it.",
      hydrate: (s) => !/_INVALID(_RESPONSE)?$/.test(s.code ?? "") }),
  // pydantic-ai-slim 2.68.0 (ui/_adapter.py), conversation on the server: a resume for a
  // call it no longer waits on is refused after RUN_STARTED, and nothing runs.
  rule("pydantic-ai-not-waiting-first-send", DEGRADED, "elsewhere", RUN_ERROR,
    all(pydanticAi, on((c) => !c.sentBefore), saying(PYDANTIC_AI_NOT_WAITING)),
    { reason: "The question was already answered elsewhere.", unrecorded: true }),
  rule("pydantic-ai-not-waiting-after-send", DEGRADED, "lost", RUN_ERROR,
    all(pydanticAi, on((c) => c.sentBefore), saying(PYDANTIC_AI_NOT_WAITING)), LOST),
  // The same adapter holding no conversation refuses a resume without it, before any tool runs.
  rule("pydantic-ai-history-missing", DEGRADED, "needs_user", RUN_ERROR,
    all(pydanticAi, saying(PYDANTIC_AI_NO_HISTORY)),
    "This server needs the whole conversation with each request; nothing ran. Your answer is kept."),
  rule("degraded-error-after-run-started", DEGRADED, "hydrate_then_decide", RUN_ERROR, acked,
    `The run failed after the answer was accepted; ${HYDRATING}`),
  rule("run-error-after-claim", CONTRACT, "retry", RUN_ERROR, acked,
    `The run failed after the answer was accepted; nothing is repeated. ${SENT_AGAIN}`),
  rule("degraded-exception-before-run-started", DEGRADED, "retry", RUN_ERROR,
    (s, c) => !c.acked && s.code !== undefined && !s.code.startsWith("APPROVAL_"),
    `The server failed before confirming the answer. ${SENT_AGAIN}`),
  rule("run-error-unknown", BOTH, "needs_user", RUN_ERROR, null,
    "The server refused the answer for a reason this client does not know. Your answer is kept."),
  rule("http-transient", BOTH, "retry", HTTP, (s) => s.status >= 500 || [408, 409, 425, 429].includes(s.status),
    `The server is busy or unavailable. ${SENT_AGAIN}`),
  rule("http-rejected", BOTH, "needs_user", HTTP, (s) => s.status === 400 || s.status === 422,
    "The server rejected the request. Your answer is kept."),
  rule("http-unexpected", BOTH, "needs_user", HTTP, null,
    "The server answered in an unexpected way. Your answer is kept."),
  rule("break-before-ack", BOTH, "retry", BREAKS, notAcked, `The connection failed. ${SENT_AGAIN}`),
  rule("break-after-ack", CONTRACT, "reattach", BREAKS, acked,
    "The connection dropped after the answer was accepted; reconnecting to the run."),
  rule("degraded-break-after-tool-results", DEGRADED, "applied", CUTS,
    all(acked, approve, (s) => s.toolResultsSeen === true),
    "The action ran (its result arrived); the end of the run was not seen."),
  rule("degraded-break-after-run-started", DEGRADED, "hydrate_then_decide", CUTS, acked,
    `The connection dropped after the answer was accepted; ${HYDRATING}`),
  rule("invalid-stream-before-ack", BOTH, "retry", INVALID, notAcked,
    `The server's answer was unreadable. ${SENT_AGAIN}`),
  rule("invalid-stream-after-ack", CONTRACT, "status_then_hydrate", INVALID, acked,
    "The run's events were unreadable; fetching its status."),
  rule("reattach-gone", BOTH, "status_then_hydrate", ["reattach-gone"], null,
    "The run's event log is gone; fetching its status."),
  rule("status-running", BOTH, "retry", STATUS, (s) => s.status === "running",
    `The run is still going. ${SENT_AGAIN}`),
  rule("status-not-found", BOTH, "hydrate_then_decide", STATUS, (s) => s.status === "not-found",
    `The server no longer knows the run; ${HYDRATING}`),
  // Nothing was sent from here and the server no longer asks: whatever ran, this answer did not.
  rule("hydrated-never-sent-closed", BOTH, "elsewhere", HYDRATED, all(on((c) => c.neverSent === true), closed),
    "The question was closed before this answer was sent: it was answered on another device, or cancelled. Nothing was sent from here."),
  rule("hydrated-approve-tool-result", BOTH, "applied", HYDRATED, all(approve, evidence("ran")), TOOK_EFFECT),
  rule("hydrated-approve-rejected", BOTH, "elsewhere", HYDRATED, all(approve, evidence("rejected")),
    REJECTED_ELSEWHERE),
  // Another answer of the batch was cut off: this one's question is open again, but the
  // same body is refused for good.
  rule("hydrated-batch-cut-still-open", CONTRACT, "needs_user", HYDRATED,
    all(on((c) => c.cutOffInBatch === true), open, nothing), { hydrate: true,
      reason: "Another action sent with it was cut off, so the server set this answer aside: its question is open again. Your answer is kept; send it again on its own (an action that already ran never runs twice).",
      error: "Another answer of the same request was cut off mid-action; this one's question is open again." }),
  // The server's explicit "nothing ran" on every attempt: an open question is still sendable.
  rule("hydrated-approve-nothing-ran", BOTH, "retry", HYDRATED, all(approve, saidNothingRan, open, nothing),
    STILL_OPEN),
  rule("hydrated-approve-nothing-ran-closed", BOTH, "needs_user", HYDRATED,
    all(approve, saidNothingRan, closed, nothing), { hydrate: true,
      reason: `The question is no longer open on the server: ${NOT_TAKEN}`,
      error: "Each attempt: APPROVAL_TOOL_UNAVAILABLE." }),
  // pydantic-ai saves the conversation only when a run ends: a run cut after RUN_STARTED
  // leaves the question open although the tool may have run, and a resend runs it again.
  rule("pydantic-ai-open-after-cut", DEGRADED, "lost", HYDRATED,
    all(pydanticAi, approve, acked, open, mayHaveRun), LOST),
  // "Lost" needs evidence the tool may have run. Without the contract, only a never-sent,
  // never-acked answer is retried: Agent Framework 1.0.1 shows a consumed question as open,
  // and ag-ui-langgraph 0.0.47 keeps a run going after the stream drops.
  rule("hydrated-approve-still-open", BOTH, "retry", HYDRATED,
    all(approve, on((c) => c.serverKind === "contract" || (!c.sentBefore && !c.acked)), open, nothing),
    STILL_OPEN),
  rule("hydrated-approve-not-run", BOTH, "needs_user", HYDRATED, all(approve, evidence("not_run")), NOT_RUN),
  rule("hydrated-approve-no-tool-result", BOTH, "lost", HYDRATED, all(approve, mayHaveRun), LOST),
  rule("hydrated-decline-tool-result", BOTH, "elsewhere", HYDRATED, all(decline, evidence("ran")),
    "The question was answered differently elsewhere: the action ran."),
  rule("hydrated-decline-may-have-run", BOTH, "lost", HYDRATED, all(decline, evidence("may_have_run")), LOST),
  rule("hydrated-decline-rejected", BOTH, "applied", HYDRATED, all(decline, evidence("rejected")),
    "The answer took effect: the conversation records the rejection, and the action did not run."),
  rule("hydrated-decline-closed", BOTH, "applied", HYDRATED, all(decline, nothing, closed), TOOK_EFFECT),
  // After RUN_STARTED without the contract, the open question may be a thread read too early.
  rule("hydrated-decline-still-open", BOTH, "lost", HYDRATED, all(decline, nothing, open), {
    reason: (_s, c) => c.serverKind === "degraded" && c.acked
      ? "The server took the answer, but cannot tell yet whether it took effect. Your answer is kept; check the result before answering again."
      : "The server did not take the answer and the question is still open. Your answer is kept." }),
  rule("retry-budget-exhausted", BOTH, "hydrate_then_decide", ["retry-budget-exhausted"], null,
    `Delivery kept failing; ${HYDRATING}`),
];
