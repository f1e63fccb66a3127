import { expect, test } from "vitest";
import type { Decision } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import { classifyOutcome, findVerdictRow, UNMATCHED_RULE } from "./classify";
import type { OutcomeContext } from "./context";
import { type DeliverySignal, InvalidStreamKind, type ServerKind } from "./delivery-signal";
import { ToolEvidence } from "./tool-evidence";
import type { Verdict } from "./verdict";
import { VERDICT_TABLE } from "./verdict-table";

function context(serverKind: ServerKind, overrides: Partial<OutcomeContext> = {}): OutcomeContext {
  return { serverKind, sentBefore: false, acked: false, decision: "approve", ...overrides };
}

interface RowCase {
  readonly row: string;
  readonly server: ServerKind;
  readonly signal: DeliverySignal;
  readonly context?: Partial<OutcomeContext>;
  readonly expected: Partial<Verdict> & Pick<Verdict, "kind">;
}

const PYDANTIC_AI_NOT_WAITING =
  "The request answers 1 tool call(s) that the stored conversation is not waiting on: 'deploy-t1'. An approval, denial or deferred tool result can only answer a tool call that is still waiting for that kind of answer at the end of the stored conversation. If the conversation changed since the client loaded it, reload it from the server.";

const recorded = [{ interruptId: "int-1", status: "resolved" as const, payload: { approved: false } }];

/** One case per row and server generation; the coverage test below keeps this list complete. */
const CASES: readonly RowCase[] = [
  {
    row: "http-unauthorized",
    server: "contract",
    signal: { type: "http-status", status: 401 },
    expected: {
      kind: "paused",
      status: 401,
      error: { kind: "unauthorized", status: 401, message: "The server answered HTTP 401." },
    },
  },
  {
    row: "http-unauthorized",
    server: "degraded",
    signal: { type: "http-status", status: 403, code: OutcomeCode.ALREADY_RESOLVED, message: "forbidden" },
    expected: { kind: "paused", status: 403 },
  },
  {
    row: "run-finished",
    server: "contract",
    signal: { type: "run-finished", replayed: true, originalRunId: "run-0" },
    context: { acked: true },
    expected: { kind: "applied", replayed: true, originalRunId: "run-0", error: null },
  },
  {
    row: "run-finished",
    server: "degraded",
    signal: { type: "run-finished", replayed: false },
    context: { acked: true },
    expected: { kind: "applied", replayed: false },
  },
  {
    row: "degraded-finished-asked-again",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "rejected", askedAgain: true },
    context: { acked: true, decision: "reject" },
    expected: { kind: "needs_user", hydrate: true },
  },
  {
    row: "degraded-finished-batch-skipped",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "none", skippedInBatch: true },
    context: { acked: true },
    expected: { kind: "needs_user", hydrate: true },
  },
  {
    row: "degraded-finished-rejected",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "rejected" },
    context: { acked: true },
    expected: { kind: "elsewhere", recordedDecisions: [], error: null },
  },
  {
    row: "degraded-finished-decline-ran",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "ran" },
    context: { acked: true, decision: "reject" },
    expected: { kind: "elsewhere", recordedDecisions: [], error: null },
  },
  {
    row: "degraded-finished-decline-may-have-run",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "may_have_run" },
    context: { acked: true, decision: "cancel" },
    expected: { kind: "lost", error: null },
  },
  {
    row: "degraded-finished-without-result",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "may_have_run" },
    context: { acked: true },
    expected: { kind: "lost", error: null },
  },
  {
    row: "run-started-contract",
    server: "contract",
    signal: { type: "run-started", acked: true },
    expected: { kind: "continue", acked: true },
  },
  {
    row: "degraded-run-started",
    server: "degraded",
    signal: { type: "run-started", acked: false },
    expected: { kind: "continue", acked: true },
  },
  {
    row: "degraded-invalid-indeterminate",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.INVALID, message: "Approval outcome is indeterminate" },
    expected: {
      kind: "lost",
      error: { kind: "run_error", code: OutcomeCode.INVALID, message: "Approval outcome is indeterminate" },
    },
  },
  {
    row: "degraded-invalid-conflicts",
    server: "degraded",
    signal: {
      type: "run-error",
      code: OutcomeCode.INVALID,
      message: "Resume conflicts with the recorded decision",
      recordedDecisions: recorded,
    },
    expected: { kind: "elsewhere", recordedDecisions: recorded },
  },
  {
    row: "degraded-invalid-in-flight",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.INVALID, message: "Approval request is not pending" },
    expected: { kind: "retry" },
  },
  {
    row: "cancelled-ours",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.CANCELLED, message: "Approval was cancelled" },
    context: { decision: "cancel" },
    expected: { kind: "applied", replayed: false, error: null },
  },
  {
    row: "cancelled-ours",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.CANCELLED, message: "cancelled" },
    context: { decision: "cancel" },
    expected: { kind: "applied" },
  },
  {
    row: "cancelled-not-ours",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.CANCELLED, message: "Approval was cancelled" },
    context: { decision: "approve" },
    expected: { kind: "elsewhere", recordedDecisions: [] },
  },
  {
    row: "cancelled-not-ours",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.CANCELLED, message: "cancelled" },
    context: { decision: "reject" },
    expected: { kind: "elsewhere" },
  },
  {
    row: "pydantic-ai-not-waiting-first-send",
    server: "degraded",
    signal: { type: "run-error", message: PYDANTIC_AI_NOT_WAITING },
    context: { acked: true, serverFamily: "pydantic-ai" },
    expected: { kind: "elsewhere", recordedDecisions: [] },
  },
  {
    row: "pydantic-ai-not-waiting-after-send",
    server: "degraded",
    signal: { type: "run-error", message: PYDANTIC_AI_NOT_WAITING },
    context: { acked: true, sentBefore: true, serverFamily: "pydantic-ai" },
    expected: { kind: "lost", error: { kind: "run_error", message: PYDANTIC_AI_NOT_WAITING } },
  },
  {
    row: "pydantic-ai-open-after-cut",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    context: { acked: true, serverFamily: "pydantic-ai" },
    expected: { kind: "lost", error: null },
  },
  {
    row: "pydantic-ai-history-missing",
    server: "degraded",
    signal: {
      type: "run-error",
      message: "Tool call results were provided, but the message history is empty.",
    },
    context: { acked: true, serverFamily: "pydantic-ai" },
    expected: { kind: "needs_user", hydrate: false },
  },
  {
    row: "degraded-error-after-run-started",
    server: "degraded",
    signal: { type: "run-error", code: "RuntimeError", message: "model call failed" },
    context: { acked: true },
    expected: {
      kind: "hydrate_then_decide",
      error: { kind: "run_error", code: "RuntimeError", message: "model call failed" },
    },
  },
  {
    row: "degraded-exception-before-run-started",
    server: "degraded",
    signal: { type: "run-error", code: "ToolExecutionException", message: "the tool failed" },
    context: { acked: false },
    expected: {
      kind: "retry",
      error: { kind: "run_error", code: "ToolExecutionException", message: "the tool failed" },
    },
  },
  {
    row: "already-resolved",
    server: "contract",
    signal: {
      type: "run-error",
      code: OutcomeCode.ALREADY_RESOLVED,
      message: "resolved",
      recordedDecisions: recorded,
    },
    expected: { kind: "elsewhere", recordedDecisions: recorded },
  },
  {
    row: "already-resolved",
    server: "degraded",
    signal: { type: "http-status", status: 409, code: OutcomeCode.ALREADY_RESOLVED },
    expected: { kind: "elsewhere", recordedDecisions: [] },
  },
  {
    row: "in-progress",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.IN_PROGRESS, message: "claimed", claimedBy: "run-other" },
    expected: { kind: "retry", reattachRunId: "run-other" },
  },
  {
    row: "in-progress",
    server: "degraded",
    signal: { type: "http-status", status: 409, code: OutcomeCode.IN_PROGRESS, retryAfterMs: 2000 },
    expected: { kind: "retry", retryAfterMs: 2000 },
  },
  {
    row: "background-poll-in-progress",
    server: "contract",
    signal: {
      type: "http-status",
      status: 409,
      code: OutcomeCode.BACKGROUND_POLL_IN_PROGRESS,
      retryAfterMs: 500,
    },
    expected: { kind: "retry", retryAfterMs: 500 },
  },
  {
    row: "background-poll-in-progress",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.BACKGROUND_POLL_IN_PROGRESS, message: "busy" },
    expected: { kind: "retry" },
  },
  {
    // One request carried several answers: the code does not say whose tool was cut.
    row: "batch-indeterminate",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.INDETERMINATE, message: "cut off" },
    context: { acked: true, inBatch: true },
    expected: {
      kind: "hydrate_then_decide",
      error: { kind: "run_error", code: OutcomeCode.INDETERMINATE, message: "cut off" },
    },
  },
  {
    row: "indeterminate",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.INDETERMINATE, message: "cut off" },
    context: { acked: true },
    expected: { kind: "lost" },
  },
  {
    row: "indeterminate",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE, message: "unknown" },
    expected: { kind: "lost" },
  },
  {
    row: "background-delivery-rejected",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED, message: "rejected" },
    expected: {
      kind: "lost",
      error: { kind: "run_error", code: OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED, message: "rejected" },
    },
  },
  {
    row: "background-delivery-rejected",
    server: "degraded",
    signal: { type: "http-status", status: 422, code: OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED },
    expected: { kind: "lost" },
  },
  {
    row: "background-token-stale",
    server: "contract",
    signal: { type: "http-status", status: 409, code: OutcomeCode.BACKGROUND_TOKEN_STALE },
    expected: { kind: "status_then_hydrate" },
  },
  {
    row: "background-token-stale",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.BACKGROUND_TOKEN_STALE, message: "stale" },
    expected: { kind: "status_then_hydrate" },
  },
  {
    row: "background-token-unknown",
    server: "contract",
    signal: { type: "http-status", status: 404, code: OutcomeCode.BACKGROUND_TOKEN_UNKNOWN },
    expected: { kind: "status_then_hydrate" },
  },
  {
    row: "background-token-unknown",
    server: "degraded",
    signal: { type: "http-status", status: 404, code: OutcomeCode.BACKGROUND_TOKEN_UNKNOWN },
    expected: { kind: "status_then_hydrate" },
  },
  {
    row: "not-found-never-sent",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.NOT_FOUND, message: "never pending" },
    expected: {
      kind: "needs_user",
      hydrate: true,
      error: { kind: "run_error", code: OutcomeCode.NOT_FOUND, message: "never pending" },
    },
  },
  {
    row: "not-found-never-sent",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.NOT_FOUND, message: "not found" },
    expected: { kind: "needs_user", hydrate: true },
  },
  {
    row: "not-found-after-send",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.NOT_FOUND, message: "never pending" },
    context: { sentBefore: true },
    expected: { kind: "hydrate_then_decide" },
  },
  {
    row: "not-found-after-send",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.NOT_FOUND, message: "not found" },
    context: { sentBefore: true },
    expected: { kind: "hydrate_then_decide" },
  },
  {
    row: "tool-unavailable",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.TOOL_UNAVAILABLE, message: "down" },
    context: { acked: true },
    expected: { kind: "retry" },
  },
  {
    row: "tool-unavailable",
    server: "degraded",
    signal: { type: "http-status", status: 503, code: OutcomeCode.TOOL_UNAVAILABLE, retryAfterMs: 7000 },
    expected: { kind: "retry", retryAfterMs: 7000 },
  },
  {
    row: "rejected-code",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.EXPIRED, message: "expired" },
    expected: {
      kind: "needs_user",
      hydrate: true,
      error: { kind: "run_error", code: OutcomeCode.EXPIRED, message: "expired" },
    },
  },
  {
    row: "rejected-code",
    server: "degraded",
    signal: { type: "run-error", code: OutcomeCode.INVALID, message: "Payload does not match" },
    expected: { kind: "needs_user", hydrate: false },
  },
  {
    row: "run-error-after-claim",
    server: "contract",
    signal: { type: "run-error", code: OutcomeCode.MODEL_CALL_FAILED, message: "model down" },
    context: { acked: true },
    expected: {
      kind: "retry",
      error: { kind: "run_error", code: OutcomeCode.MODEL_CALL_FAILED, message: "model down" },
    },
  },
  {
    row: "run-error-unknown",
    server: "contract",
    signal: { type: "run-error", code: "SOMETHING_NEW", message: "raw server text" },
    expected: {
      kind: "needs_user",
      hydrate: false,
      error: { kind: "run_error", code: "SOMETHING_NEW", message: "raw server text" },
    },
  },
  {
    row: "run-error-unknown",
    server: "degraded",
    signal: { type: "run-error", message: "no code at all" },
    expected: { kind: "needs_user", error: { kind: "run_error", message: "no code at all" } },
  },
  {
    row: "http-transient",
    server: "contract",
    signal: { type: "http-status", status: 429, retryAfterMs: 30_000 },
    expected: {
      kind: "retry",
      retryAfterMs: 30_000,
      error: { kind: "http", status: 429, message: "The server answered HTTP 429." },
    },
  },
  {
    row: "http-transient",
    server: "degraded",
    signal: { type: "http-status", status: 502 },
    expected: { kind: "retry" },
  },
  {
    row: "http-rejected",
    server: "contract",
    signal: {
      type: "http-status",
      status: 422,
      code: OutcomeCode.IDEMPOTENCY_KEY_REUSED,
      message: "key reused",
    },
    expected: {
      kind: "needs_user",
      error: { kind: "http", status: 422, code: OutcomeCode.IDEMPOTENCY_KEY_REUSED, message: "key reused" },
    },
  },
  {
    row: "http-rejected",
    server: "degraded",
    signal: { type: "http-status", status: 400 },
    expected: { kind: "needs_user" },
  },
  {
    row: "http-unexpected",
    server: "contract",
    signal: { type: "http-status", status: 413, code: OutcomeCode.PAYLOAD_TOO_LARGE, message: "too large" },
    expected: {
      kind: "needs_user",
      error: { kind: "http", status: 413, code: OutcomeCode.PAYLOAD_TOO_LARGE, message: "too large" },
    },
  },
  {
    row: "http-unexpected",
    server: "degraded",
    signal: { type: "http-status", status: 404 },
    expected: { kind: "needs_user" },
  },
  {
    row: "break-before-ack",
    server: "contract",
    signal: { type: "stream-ended" },
    expected: {
      kind: "retry",
      error: { kind: "stream_ended", message: "The stream ended without RUN_FINISHED or RUN_ERROR." },
    },
  },
  {
    row: "break-before-ack",
    server: "degraded",
    signal: { type: "stream-ended" },
    context: { sentBefore: true },
    expected: { kind: "retry" },
  },
  {
    row: "break-after-ack",
    server: "contract",
    signal: { type: "stream-stalled" },
    context: { acked: true },
    expected: {
      kind: "reattach",
      error: { kind: "stream_stalled", message: "No data arrived within the watchdog interval." },
    },
  },
  {
    // Every answer's own result was on the stream: it ran, though the end never came.
    row: "degraded-break-after-tool-results",
    server: "degraded",
    signal: { type: "stream-ended", toolResultsSeen: true },
    context: { acked: true },
    expected: { kind: "applied", replayed: false, error: null },
  },
  {
    row: "degraded-break-after-run-started",
    server: "degraded",
    signal: { type: "stream-ended" },
    context: { acked: true },
    expected: { kind: "hydrate_then_decide" },
  },
  {
    row: "invalid-stream-before-ack",
    server: "contract",
    signal: { type: "invalid-stream", kind: InvalidStreamKind.notEventStream, message: "text/html" },
    expected: { kind: "retry", error: { kind: "not_event_stream", message: "text/html" } },
  },
  {
    row: "invalid-stream-before-ack",
    server: "degraded",
    signal: { type: "invalid-stream", kind: InvalidStreamKind.invalidJson, message: "bad json" },
    expected: { kind: "retry" },
  },
  {
    row: "invalid-stream-after-ack",
    server: "contract",
    signal: { type: "invalid-stream", kind: InvalidStreamKind.invalidEvent, message: "unknown type" },
    context: { acked: true },
    expected: { kind: "status_then_hydrate", error: { kind: "invalid_event", message: "unknown type" } },
  },
  {
    row: "reattach-gone",
    server: "contract",
    signal: { type: "reattach-gone", status: 410 },
    context: { acked: true },
    expected: {
      kind: "status_then_hydrate",
      error: {
        kind: "http",
        status: 410,
        code: OutcomeCode.EVENT_LOG_EXPIRED,
        message: "The run's event log has expired.",
      },
    },
  },
  {
    row: "reattach-gone",
    server: "degraded",
    signal: { type: "reattach-gone", status: 404 },
    context: { acked: true },
    expected: { kind: "status_then_hydrate" },
  },
  {
    row: "status-running",
    server: "contract",
    signal: { type: "run-status", status: "running" },
    context: { acked: true },
    expected: { kind: "retry", error: null },
  },
  {
    row: "status-running",
    server: "degraded",
    signal: { type: "run-status", status: "running" },
    expected: { kind: "retry" },
  },
  {
    row: "status-not-found",
    server: "contract",
    signal: { type: "run-status", status: "not-found" },
    context: { acked: true },
    expected: { kind: "hydrate_then_decide" },
  },
  {
    row: "status-not-found",
    server: "degraded",
    signal: { type: "run-status", status: "not-found" },
    expected: { kind: "hydrate_then_decide" },
  },
  {
    // Held for the others of its run, never sent; another device's answer closed it.
    row: "hydrated-never-sent-closed",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "rejected", interruptStillOpen: false },
    context: { neverSent: true, inBatch: true },
    expected: { kind: "elsewhere" },
  },
  {
    // Even with the tool's result in the thread: it was not this answer that ran it.
    row: "hydrated-never-sent-closed",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    context: { neverSent: true, inBatch: true },
    expected: { kind: "elsewhere" },
  },
  {
    row: "hydrated-approve-tool-result",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    expected: { kind: "applied", replayed: false },
  },
  {
    row: "hydrated-approve-tool-result",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    context: { sentBefore: true },
    expected: { kind: "applied" },
  },
  {
    // Another answer's tool was cut off; this one is open again and nothing ran.
    row: "hydrated-batch-cut-still-open",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    context: { acked: true, sentBefore: true, inBatch: true, cutOffInBatch: true },
    expected: { kind: "needs_user", hydrate: true },
  },
  {
    // Every attempt answered "nothing ran" after RUN_STARTED: still sendable, never lost.
    row: "hydrated-approve-nothing-ran",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    context: { acked: true, sentBefore: true, nothingRan: true },
    expected: { kind: "retry", error: null },
  },
  {
    row: "hydrated-approve-nothing-ran",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "not_run", interruptStillOpen: true },
    context: { acked: true, nothingRan: true },
    expected: { kind: "retry" },
  },
  {
    row: "hydrated-approve-nothing-ran-closed",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { acked: true, sentBefore: true, nothingRan: true },
    expected: { kind: "needs_user", hydrate: true },
  },
  {
    row: "hydrated-approve-nothing-ran-closed",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { nothingRan: true },
    expected: { kind: "needs_user" },
  },
  {
    row: "hydrated-approve-still-open",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    expected: { kind: "retry", error: null },
  },
  {
    row: "hydrated-approve-still-open",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "not_run", interruptStillOpen: true },
    context: { sentBefore: false },
    expected: { kind: "retry" },
  },
  {
    // On a contract server an open question is still PENDING, however often it was sent.
    row: "hydrated-approve-still-open",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "not_run", interruptStillOpen: true },
    context: { sentBefore: true },
    expected: { kind: "retry" },
  },
  {
    // The server's marker that the tool never started: not lost, the answer kept.
    row: "hydrated-approve-not-run",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "not_run", interruptStillOpen: false },
    context: { sentBefore: true },
    expected: { kind: "needs_user" },
  },
  {
    row: "hydrated-approve-not-run",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "not_run", interruptStillOpen: false },
    context: { sentBefore: true, acked: true },
    expected: { kind: "needs_user" },
  },
  {
    row: "degraded-finished-not-run",
    server: "degraded",
    signal: { type: "run-finished", replayed: false, toolEvidence: "not_run" },
    context: { acked: true },
    expected: { kind: "needs_user" },
  },
  {
    row: "hydrated-approve-no-tool-result",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { sentBefore: true },
    expected: { kind: "lost" },
  },
  {
    row: "hydrated-approve-no-tool-result",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { sentBefore: true },
    expected: { kind: "lost" },
  },
  {
    row: "hydrated-decline-tool-result",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    context: { decision: "reject" },
    expected: { kind: "elsewhere", recordedDecisions: [] },
  },
  {
    row: "hydrated-decline-tool-result",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    context: { decision: "cancel" },
    expected: { kind: "elsewhere" },
  },
  {
    row: "hydrated-decline-closed",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { decision: "reject" },
    expected: { kind: "applied" },
  },
  {
    row: "hydrated-decline-closed",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: false },
    context: { decision: "cancel" },
    expected: { kind: "applied" },
  },
  {
    row: "hydrated-decline-still-open",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    context: { decision: "reject" },
    expected: { kind: "lost" },
  },
  {
    row: "hydrated-decline-still-open",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "none", interruptStillOpen: true },
    context: { decision: "cancel" },
    expected: { kind: "lost" },
  },
  {
    row: "hydrated-approve-rejected",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "rejected", interruptStillOpen: true },
    context: { sentBefore: true },
    expected: { kind: "elsewhere", recordedDecisions: [] },
  },
  {
    row: "hydrated-approve-rejected",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "rejected", interruptStillOpen: false },
    expected: { kind: "elsewhere" },
  },
  {
    row: "hydrated-decline-may-have-run",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "may_have_run", interruptStillOpen: false },
    context: { decision: "reject" },
    expected: { kind: "lost", error: null },
  },
  {
    row: "hydrated-decline-may-have-run",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "may_have_run", interruptStillOpen: false },
    context: { decision: "cancel" },
    expected: { kind: "lost" },
  },
  {
    row: "hydrated-decline-rejected",
    server: "degraded",
    signal: { type: "hydrated", toolEvidence: "rejected", interruptStillOpen: true },
    context: { decision: "reject" },
    expected: { kind: "applied", replayed: false },
  },
  {
    row: "hydrated-decline-rejected",
    server: "contract",
    signal: { type: "hydrated", toolEvidence: "rejected", interruptStillOpen: false },
    context: { decision: "reject" },
    expected: { kind: "applied" },
  },
  {
    row: "retry-budget-exhausted",
    server: "contract",
    signal: { type: "retry-budget-exhausted", attempts: 8 },
    expected: {
      kind: "hydrate_then_decide",
      error: { kind: "retry_budget_exhausted", message: "Gave up after 8 attempts." },
    },
  },
  {
    row: "retry-budget-exhausted",
    server: "degraded",
    signal: { type: "retry-budget-exhausted", attempts: 3 },
    expected: { kind: "hydrate_then_decide" },
  },
];

for (const rowCase of CASES) {
  const description =
    VERDICT_TABLE.find((candidate) => candidate.id === rowCase.row)?.signal ?? "(missing row)";
  test(`[${rowCase.server}] ${rowCase.row}: ${description} → ${rowCase.expected.kind}`, () => {
    const verdict = classifyOutcome(rowCase.signal, context(rowCase.server, rowCase.context));
    expect(verdict.rule).toBe(rowCase.row);
    expect(verdict).toMatchObject(rowCase.expected);
    expect(verdict.reason.length).toBeGreaterThan(0);
  });
}

test("every row of the table has a case for each server generation it applies to", () => {
  const missing = VERDICT_TABLE.flatMap((tableRow) =>
    tableRow.servers
      .filter((server) => !CASES.some((rowCase) => rowCase.row === tableRow.id && rowCase.server === server))
      .map((server) => `${server}:${tableRow.id}`),
  );
  expect(missing).toEqual([]);
  const unknown = CASES.filter((rowCase) => !VERDICT_TABLE.some((tableRow) => tableRow.id === rowCase.row));
  expect(unknown).toEqual([]);
});

test("row ids are unique and every row describes itself", () => {
  const ids = VERDICT_TABLE.map((tableRow) => tableRow.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const tableRow of VERDICT_TABLE) {
    expect(tableRow.signal.length, tableRow.id).toBeGreaterThan(0);
    expect(tableRow.description.length, tableRow.id).toBeGreaterThan(0);
    expect(tableRow.servers.length, tableRow.id).toBeGreaterThan(0);
  }
});

// --- the whole input space -------------------------------------------------

const MESSAGES = ["is indeterminate", "conflicts with", "is not pending", "already being processed", "boom"];
const CODES: readonly (string | undefined)[] = [...Object.values(OutcomeCode), "ValueError", undefined];

function allSignals(): DeliverySignal[] {
  const signals: DeliverySignal[] = [
    { type: "run-finished", replayed: false },
    { type: "run-finished", replayed: true, originalRunId: "run-0" },
    ...Object.values(ToolEvidence).map((toolEvidence) => ({
      type: "run-finished" as const,
      replayed: false,
      toolEvidence,
    })),
    { type: "run-started", acked: true },
    { type: "run-started", acked: false },
    { type: "network-error" },
    { type: "stream-ended" },
    { type: "stream-stalled" },
    { type: "network-error", toolResultsSeen: true },
    { type: "stream-ended", toolResultsSeen: true },
    { type: "stream-stalled", toolResultsSeen: true },
    { type: "reattach-gone", status: 404 },
    { type: "reattach-gone", status: 410 },
    { type: "run-status", status: "running" },
    { type: "run-status", status: "not-found" },
    { type: "retry-budget-exhausted", attempts: 5 },
  ];
  for (const kind of Object.values(InvalidStreamKind)) {
    signals.push({ type: "invalid-stream", kind, message: kind });
    signals.push({ type: "invalid-stream", kind, message: kind, toolResultsSeen: true });
  }
  for (const toolEvidence of Object.values(ToolEvidence)) {
    for (const interruptStillOpen of [true, false])
      signals.push({ type: "hydrated", toolEvidence, interruptStillOpen });
  }
  for (const code of CODES) {
    for (const message of MESSAGES)
      signals.push({ type: "run-error", message, ...(code === undefined ? {} : { code }) });
    for (const status of [200, 400, 401, 403, 404, 405, 408, 409, 410, 413, 422, 425, 429, 500, 502, 503]) {
      signals.push({
        type: "http-status",
        status,
        ...(code === undefined ? {} : { code }),
        retryAfterMs: 1000,
      });
    }
  }
  return signals;
}

function allContexts(): OutcomeContext[] {
  const contexts: OutcomeContext[] = [];
  const decisions: readonly Decision["kind"][] = ["approve", "reject", "cancel"];
  for (const serverKind of ["contract", "degraded"] as const) {
    for (const sentBefore of [true, false]) {
      for (const acked of [true, false]) {
        for (const decision of decisions) {
          contexts.push({ serverKind, sentBefore, acked, decision });
          contexts.push({ serverKind, sentBefore, acked, decision, nothingRan: true });
        }
      }
    }
  }
  return contexts;
}

test("the table is total: every signal in every context matches a row, whose verdict column is what it returns", () => {
  const problems: string[] = [];
  let checked = 0;
  for (const signal of allSignals()) {
    for (const outcomeContext of allContexts()) {
      const matched = findVerdictRow(signal, outcomeContext);
      const verdict = classifyOutcome(signal, outcomeContext);
      const consistent =
        matched !== undefined &&
        verdict.rule === matched.id &&
        verdict.kind === matched.verdict &&
        matched.signalTypes.includes(signal.type) &&
        matched.servers.includes(outcomeContext.serverKind);
      if (!consistent)
        problems.push(`${JSON.stringify(signal)} in ${JSON.stringify(outcomeContext)} → ${verdict.rule}`);
      checked += 1;
    }
  }
  expect(problems).toEqual([]);
  expect(checked).toBeGreaterThan(5000);
});

test("needs_user always keeps the raw code and message; nothing final is retried", () => {
  for (const signal of allSignals()) {
    for (const outcomeContext of allContexts()) {
      const verdict = classifyOutcome(signal, outcomeContext);
      if (verdict.kind === "needs_user" && (signal.type === "run-error" || signal.type === "http-status")) {
        if (signal.code !== undefined) expect(verdict.error.code).toBe(signal.code);
        if (signal.message !== undefined) expect(verdict.error.message).toBe(signal.message);
      }
      if (signal.type === "run-error" && signal.code?.endsWith("_INDETERMINATE") && !outcomeContext.acked) {
        expect(verdict.kind).toBe("lost");
      }
    }
  }
});

// --- precedence between rows -----------------------------------------------

test("401/403 pause even when the body names a conflict code", () => {
  const verdict = classifyOutcome(
    { type: "http-status", status: 401, code: OutcomeCode.IN_PROGRESS },
    context("contract"),
  );
  expect(verdict).toMatchObject({ kind: "paused", rule: "http-unauthorized" });
});

test("an outcome code in an HTTP error body outranks the status", () => {
  const resolved = classifyOutcome(
    { type: "http-status", status: 409, code: OutcomeCode.ALREADY_RESOLVED },
    context("contract"),
  );
  expect(resolved.kind).toBe("elsewhere");
  const expired = classifyOutcome(
    { type: "http-status", status: 503, code: OutcomeCode.EXPIRED },
    context("contract"),
  );
  expect(expired.kind).toBe("needs_user");
});

test("degraded: an INVALID message naming indeterminate and not pending ends lost, not retried", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.INVALID, message: "not pending: outcome indeterminate" },
    context("degraded"),
  );
  expect(verdict).toMatchObject({ kind: "lost", rule: "degraded-invalid-indeterminate" });
});

test("degraded: INVALID texts match case-insensitively, including 'in progress'", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.INVALID, message: "Approval In Progress" },
    context("degraded"),
  );
  expect(verdict.kind).toBe("retry");
});

test("contract: INVALID texts carry no meaning; the code asks the person", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.INVALID, message: "outcome indeterminate" },
    context("contract"),
  );
  expect(verdict).toMatchObject({ kind: "needs_user", rule: "rejected-code" });
});

test("degraded: a failure after RUN_STARTED that names no specific code is never a plain retry", () => {
  for (const signal of [
    { type: "run-error", code: "RuntimeError", message: "x" },
    { type: "run-error", message: "no code" },
    { type: "network-error" },
    { type: "stream-stalled" },
  ] as const) {
    expect(classifyOutcome(signal, context("degraded", { acked: true })).kind).toBe("hydrate_then_decide");
  }
});

// Agent Framework 1.7.0 sends RUN_STARTED before every APPROVAL_* error (_agent_run.py): the
// code says what happened, so it decides, not the RUN_STARTED in front of it.
test.each([
  [OutcomeCode.TOOL_UNAVAILABLE, "retry", "tool-unavailable"],
  [OutcomeCode.EXPIRED, "needs_user", "rejected-code"],
  [OutcomeCode.INVALID_RESPONSE, "needs_user", "rejected-code"],
  [OutcomeCode.MISSING_INTERRUPT, "needs_user", "rejected-code"],
  [OutcomeCode.NOT_FOUND, "hydrate_then_decide", "not-found-after-send"],
  [OutcomeCode.ALREADY_RESOLVED, "elsewhere", "already-resolved"],
  [OutcomeCode.INDETERMINATE, "lost", "indeterminate"],
])("degraded: %s after RUN_STARTED decides (%s), it does not hydrate", (code, kind, rule) => {
  const verdict = classifyOutcome(
    { type: "run-error", code, message: "from the server" },
    context("degraded", { acked: true }),
  );
  expect(verdict).toMatchObject({ kind, rule });
});

test("degraded: a finished run claims applied only with the tool's own result; a reject needs none", () => {
  const finishedWith = (toolEvidence: ToolEvidence): DeliverySignal => ({
    type: "run-finished",
    replayed: false,
    toolEvidence,
  });
  expect(classifyOutcome(finishedWith("ran"), context("degraded", { acked: true })).kind).toBe("applied");
  expect(classifyOutcome(finishedWith("none"), context("degraded", { acked: true })).kind).toBe("lost");
  // The server's marker that the tool never started: not lost (nothing may have run).
  const notRun = classifyOutcome(finishedWith("not_run"), context("degraded", { acked: true }));
  expect(notRun).toMatchObject({ kind: "needs_user", rule: "degraded-finished-not-run" });
  expect(notRun.reason).toMatch(/did not run/);
  const rejected = classifyOutcome(finishedWith("rejected"), context("degraded", { decision: "reject" }));
  expect(rejected).toMatchObject({ kind: "applied", rule: "run-finished" });
});

test("an open question with nothing run is sent once more, then lost: a resend answered NOT_FOUND cannot loop", () => {
  const stillOpen: DeliverySignal = { type: "hydrated", toolEvidence: "none", interruptStillOpen: true };
  expect(classifyOutcome(stillOpen, context("degraded")).kind).toBe("retry");
  expect(classifyOutcome(stillOpen, context("degraded", { sentBefore: true }))).toMatchObject({
    kind: "lost",
    rule: "hydrated-approve-no-tool-result",
  });
  // RUN_STARTED arrived for this very send: the server took the answer and may still be running it.
  expect(classifyOutcome(stillOpen, context("degraded", { acked: true }))).toMatchObject({
    kind: "lost",
    rule: "hydrated-approve-no-tool-result",
  });
});

test("degraded: NOT_FOUND after RUN_STARTED in the same attempt is not a stale card", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.NOT_FOUND, message: "gone" },
    context("degraded", { acked: true }),
  );
  expect(verdict.kind).toBe("hydrate_then_decide");
});

test("contract: an unknown code after the claim retries, before it asks the person", () => {
  const signal: DeliverySignal = { type: "run-error", code: "BRAND_NEW", message: "raw" };
  expect(classifyOutcome(signal, context("contract", { acked: true })).kind).toBe("retry");
  expect(classifyOutcome(signal, context("contract", { acked: false })).kind).toBe("needs_user");
});

test("the IN_PROGRESS retry names no run to follow when the server named none", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.IN_PROGRESS, message: "busy" },
    context("contract"),
  );
  expect(verdict.kind).toBe("retry");
  expect(verdict).not.toHaveProperty("reattachRunId");
});

test("a signal of a type no row knows (a newer transport) becomes needs_user, never a throw", () => {
  const bogus = JSON.parse('{"type":"telepathy"}') as DeliverySignal;
  const verdict = classifyOutcome(bogus, context("contract"));
  expect(verdict).toMatchObject({ kind: "needs_user", rule: UNMATCHED_RULE, hydrate: false });
  expect(verdict.error?.message).toContain("telepathy");
});

test('degraded: a rejection whose RUN_STARTED arrived, the question still open → lost, never "not taken"', () => {
  const stillOpen: DeliverySignal = { type: "hydrated", toolEvidence: "none", interruptStillOpen: true };
  const notAcked = classifyOutcome(stillOpen, context("degraded", { decision: "reject" }));
  const acked = classifyOutcome(stillOpen, context("degraded", { decision: "reject", acked: true }));
  expect(notAcked).toMatchObject({ kind: "lost", rule: "hydrated-decline-still-open" });
  expect(notAcked.reason).toMatch(/did not take the answer/);
  expect(acked).toMatchObject({ kind: "lost", rule: "hydrated-decline-still-open" });
  expect(acked.reason).toMatch(/took the answer, but cannot tell yet/);
});

test("a batch answer the server left unread is never applied or lost, approved or rejected", () => {
  const skipped: DeliverySignal = {
    type: "run-finished",
    replayed: false,
    toolEvidence: "none",
    skippedInBatch: true,
  };
  for (const decision of ["approve", "reject", "cancel"] as const) {
    const verdict = classifyOutcome(skipped, context("degraded", { acked: true, decision }));
    expect(verdict).toMatchObject({ kind: "needs_user", rule: "degraded-finished-batch-skipped" });
  }
  // Evidence of its own (a result, a rejection marker) decides as before.
  const ran = classifyOutcome({ ...skipped, toolEvidence: "ran" }, context("degraded", { acked: true }));
  expect(ran.kind).toBe("applied");
  const rejected = classifyOutcome(
    { ...skipped, toolEvidence: "rejected" },
    context("degraded", { acked: true }),
  );
  expect(rejected.kind).toBe("elsewhere");
  // A contract server's RUN_FINISHED is evidence for every answer of the batch.
  expect(classifyOutcome(skipped, context("contract", { acked: true })).kind).toBe("applied");
});

test("a question the server asks again was not answered: never applied, whatever the decision", () => {
  const again: DeliverySignal = {
    type: "run-finished",
    replayed: false,
    toolEvidence: "none",
    askedAgain: true,
  };
  for (const decision of ["approve", "reject", "cancel"] as const) {
    const verdict = classifyOutcome(again, context("degraded", { acked: true, decision }));
    expect(verdict).toMatchObject({ kind: "needs_user", rule: "degraded-finished-asked-again" });
  }
  // The tool's own result outweighs the new question: it ran.
  const ran = classifyOutcome({ ...again, toolEvidence: "ran" }, context("degraded", { acked: true }));
  expect(ran.kind).toBe("applied");
});

test("a batch cut off: the answer whose question closed with no result is lost; one with its result, applied", () => {
  const cut = context("contract", { acked: true, sentBefore: true, inBatch: true, cutOffInBatch: true });
  const closed = classifyOutcome({ type: "hydrated", toolEvidence: "none", interruptStillOpen: false }, cut);
  expect(closed.kind).toBe("lost");
  const ran = classifyOutcome({ type: "hydrated", toolEvidence: "ran", interruptStillOpen: true }, cut);
  expect(ran.kind).toBe("applied");
});
