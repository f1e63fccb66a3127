import type { EntryError } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import type { OutcomeContext } from "./context";
import type { DeliverySignal, DeliverySignalType, ServerKind } from "./delivery-signal";
import { NOT_TAKEN_ERRORS } from "./not-taken-errors";
import type { VerdictBody, VerdictKind } from "./verdict";

/**
 * DESIGN.md's verdict table as the classifier runs it: one rule per line of the
 * table (contract and degraded), first match wins. Each rule's prose (signal,
 * why, the decision taken where DESIGN.md is silent) is in verdict-table.ts,
 * which the docs print: the runtime never reads it, so apps do not ship it.
 */
export interface VerdictRule {
  /** Stable id; stamped on every verdict as `rule`. */
  readonly id: string;
  /** The server generations the rule applies to. */
  readonly servers: readonly ServerKind[];
  /** The verdict column. */
  readonly verdict: VerdictKind;
  /** The `DeliverySignal` types the rule can match. */
  readonly signalTypes: readonly DeliverySignalType[];
  readonly matches: (signal: DeliverySignal, context: OutcomeContext) => boolean;
  readonly decide: (signal: DeliverySignal, context: OutcomeContext) => VerdictBody;
}

type SignalOf<T extends DeliverySignalType> = Extract<DeliverySignal, { type: T }>;

interface RowSpec<T extends DeliverySignalType> extends Pick<VerdictRule, "id" | "servers" | "verdict"> {
  readonly on: readonly T[];
  readonly when?: (signal: SignalOf<T>, context: OutcomeContext) => boolean;
  readonly decide: (signal: SignalOf<T>, context: OutcomeContext) => VerdictBody;
}

/* @__NO_SIDE_EFFECTS__ */
function row<T extends DeliverySignalType>(spec: RowSpec<T>): VerdictRule {
  const types: readonly DeliverySignalType[] = spec.on;
  const is = (signal: DeliverySignal): signal is SignalOf<T> => types.includes(signal.type);
  const when = spec.when;
  return {
    id: spec.id,
    servers: spec.servers,
    verdict: spec.verdict,
    signalTypes: types,
    matches: (signal, context) =>
      spec.servers.includes(context.serverKind) &&
      is(signal) &&
      (when === undefined || when(signal, context)),
    decide: (signal, context) => {
      // `classifyOutcome` only calls `decide` after `matches`; the guard keeps the
      // row safe to call directly (docs, tests) without a cast.
      if (!is(signal)) throw new TypeError(`Row ${spec.id} cannot decide a ${signal.type} signal.`);
      return spec.decide(signal, context);
    },
  };
}

const BOTH: readonly ServerKind[] = ["contract", "degraded"];
const CONTRACT: readonly ServerKind[] = ["contract"];
const DEGRADED: readonly ServerKind[] = ["degraded"];

type CodedSignal = SignalOf<"run-error" | "http-status">;
const CODED = ["run-error", "http-status"] as const;
const BREAKS = ["network-error", "stream-ended", "stream-stalled"] as const;

const hasCode = (code: string) => (signal: CodedSignal) => signal.code === code;
const hasSuffix = (suffixes: readonly string[]) => (signal: CodedSignal) =>
  signal.code !== undefined && suffixes.some((suffix) => signal.code?.endsWith(suffix));
const invalidSaying = (pattern: RegExp) => (signal: CodedSignal) =>
  signal.code === OutcomeCode.INVALID && pattern.test(signal.message ?? "");

/** The failure a signal describes, as stored in `entry.lastError`. Never holds answer content. */
export function errorOf(signal: DeliverySignal): EntryError | null {
  switch (signal.type) {
    case "run-error":
      return {
        kind: "run_error",
        message: signal.message,
        ...(signal.code === undefined ? {} : { code: signal.code }),
      };
    case "http-status":
      return {
        kind: signal.status === 401 || signal.status === 403 ? "unauthorized" : "http",
        message: signal.message ?? `The server answered HTTP ${signal.status}.`,
        status: signal.status,
        ...(signal.code === undefined ? {} : { code: signal.code }),
      };
    case "network-error":
      return { kind: "network", message: signal.message ?? "The network failed before the run finished." };
    case "stream-ended":
      return { kind: "stream_ended", message: "The stream ended without RUN_FINISHED or RUN_ERROR." };
    case "stream-stalled":
      return { kind: "stream_stalled", message: "No data arrived within the watchdog interval." };
    case "invalid-stream":
      return { kind: signal.kind, message: signal.message };
    case "reattach-gone":
      return signal.status === 404
        ? {
            kind: "http",
            status: 404,
            code: OutcomeCode.RUN_NOT_FOUND,
            message: "The server does not know the run.",
          }
        : {
            kind: "http",
            status: 410,
            code: OutcomeCode.EVENT_LOG_EXPIRED,
            message: "The run's event log has expired.",
          };
    case "run-status":
      return signal.status === "not-found"
        ? {
            kind: "http",
            status: 404,
            code: OutcomeCode.RUN_NOT_FOUND,
            message: "The server does not know the run.",
          }
        : null;
    case "retry-budget-exhausted":
      return { kind: "retry_budget_exhausted", message: `Gave up after ${signal.attempts} attempts.` };
    case "run-finished":
    case "run-started":
    case "hydrated":
      return null;
  }
}

/** `errorOf` for rows that always have a failure behind them (needs_user keeps it raw). */
function failureOf(signal: DeliverySignal): EntryError {
  return errorOf(signal) ?? { kind: "run_error", message: `Unexpected ${signal.type} signal.` };
}

const SENT_AGAIN = "It will be sent again unchanged, with the same idempotency key.";
const LOST =
  "The server cannot tell whether the action ran. Your answer is kept; check the result before answering again.";
/** pydantic-ai's refusal of a resume for a call it no longer waits on (ui/_adapter.py). */
const PYDANTIC_AI_NOT_WAITING = /that the stored conversation is not waiting on\b/;
/** pydantic-ai, history held by the client, given none (_agent_graph.py). */
const PYDANTIC_AI_NO_HISTORY =
  /^(Tool call results were provided, but the message history is empty|Processed history cannot be empty)\./;
const NOT_TAKEN = "this answer was not taken and its action did not run. Your answer is kept; send it again.";
const RAN_END_UNSEEN = "The action ran (its result arrived); the end of the run was not seen.";
const STILL_OPEN =
  "The question is still open on the server and nothing ran; sending again with the same key.";
const BATCH_CUT =
  "Another answer of the same request was cut off mid-action; this one's question is open again.";
const NOT_RUN =
  "The server reported an error before the action could run, so it did not run. Your answer is kept; review it and answer again.";

export const VERDICT_RULES: readonly VerdictRule[] = [
  row({
    id: "http-unauthorized",
    servers: BOTH,
    verdict: "paused",
    on: ["http-status"],
    when: (s) => s.status === 401 || s.status === 403,
    decide: (s) => ({
      kind: "paused",
      status: s.status === 401 ? 401 : 403,
      reason: "Sign-in is needed before the answer can be sent. It is kept until then.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "degraded-finished-asked-again",
    servers: DEGRADED,
    verdict: "needs_user",
    on: ["run-finished"],
    when: (s) => !s.replayed && s.askedAgain === true && s.toolEvidence !== "ran",
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason: `The server asks this question again: ${NOT_TAKEN}`,
      error: { kind: "run_error", message: NOT_TAKEN_ERRORS.askedAgain },
    }),
  }),
  row({
    id: "degraded-finished-batch-skipped",
    servers: DEGRADED,
    verdict: "needs_user",
    on: ["run-finished"],
    when: (s) => !s.replayed && s.skippedInBatch === true && s.toolEvidence === "none",
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason: `The server took only the other answers sent with it: ${NOT_TAKEN}`,
      error: { kind: "run_error", message: NOT_TAKEN_ERRORS.skippedInBatch },
    }),
  }),
  row({
    id: "degraded-finished-rejected",
    servers: DEGRADED,
    verdict: "elsewhere",
    on: ["run-finished"],
    when: (s, c) => c.decision === "approve" && !s.replayed && s.toolEvidence === "rejected",
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was answered differently elsewhere: it was rejected, and the action did not run.",
      error: null,
    }),
  }),
  row({
    id: "degraded-finished-not-run",
    servers: DEGRADED,
    verdict: "needs_user",
    on: ["run-finished"],
    // The server's own marker says the tool never started (unknown tool, bad
    // arguments): nothing may have run, so this is not "lost".
    when: (s, c) => c.decision === "approve" && !s.replayed && s.toolEvidence === "not_run",
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason: NOT_RUN,
      error: { kind: "run_error", message: "The server's marker says the tool never started." },
    }),
  }),
  row({
    id: "degraded-finished-without-result",
    servers: DEGRADED,
    verdict: "lost",
    on: ["run-finished"],
    when: (s, c) =>
      c.decision === "approve" &&
      !s.replayed &&
      (s.toolEvidence === "none" || s.toolEvidence === "may_have_run"),
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    id: "degraded-finished-decline-ran",
    servers: DEGRADED,
    verdict: "elsewhere",
    on: ["run-finished"],
    when: (s, c) => c.decision !== "approve" && !s.replayed && s.toolEvidence === "ran",
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was answered differently elsewhere: it was approved, and the action ran.",
      error: null,
    }),
  }),
  row({
    id: "degraded-finished-decline-may-have-run",
    servers: DEGRADED,
    verdict: "lost",
    on: ["run-finished"],
    // As a hydration showing the same: the tool's body started, so someone's approval
    // may have won over ours, or not; nothing here says which.
    when: (s, c) => c.decision !== "approve" && !s.replayed && s.toolEvidence === "may_have_run",
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    id: "run-finished",
    servers: BOTH,
    verdict: "applied",
    on: ["run-finished"],
    decide: (s) => ({
      kind: "applied",
      replayed: s.replayed,
      ...(s.originalRunId === undefined ? {} : { originalRunId: s.originalRunId }),
      reason: s.replayed
        ? "The answer had already taken effect; the server replayed its outcome."
        : "The answer took effect.",
      error: null,
    }),
  }),
  row({
    id: "run-started-contract",
    servers: CONTRACT,
    verdict: "continue",
    on: ["run-started"],
    decide: (s) => ({
      kind: "continue",
      acked: s.acked,
      reason: s.acked ? "The server accepted the answer." : "The run started.",
      error: null,
    }),
  }),
  row({
    id: "degraded-run-started",
    servers: DEGRADED,
    verdict: "continue",
    on: ["run-started"],
    decide: () => ({ kind: "continue", acked: true, reason: "The server accepted the answer.", error: null }),
  }),
  row({
    id: "degraded-invalid-indeterminate",
    servers: DEGRADED,
    verdict: "lost",
    on: CODED,
    when: invalidSaying(/indeterminate/i),
    decide: (s) => ({ kind: "lost", reason: LOST, error: errorOf(s) }),
  }),
  row({
    id: "degraded-invalid-conflicts",
    servers: DEGRADED,
    verdict: "elsewhere",
    on: CODED,
    when: invalidSaying(/conflict/i),
    decide: (s) => ({
      kind: "elsewhere",
      recordedDecisions: s.type === "run-error" ? (s.recordedDecisions ?? []) : [],
      reason: "The question was already answered differently elsewhere.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "degraded-invalid-in-flight",
    servers: DEGRADED,
    verdict: "retry",
    on: CODED,
    when: invalidSaying(/not pending|in progress|already being processed/i),
    decide: (s) => ({
      kind: "retry",
      ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
      reason: `Another submission for this question is still being processed. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "cancelled-ours",
    servers: BOTH,
    verdict: "applied",
    on: CODED,
    when: (s, c) => s.code === OutcomeCode.CANCELLED && c.decision === "cancel",
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: "The cancellation took effect.",
      error: null,
    }),
  }),
  row({
    id: "cancelled-not-ours",
    servers: BOTH,
    verdict: "elsewhere",
    on: CODED,
    when: (s, c) => s.code === OutcomeCode.CANCELLED && c.decision !== "cancel",
    decide: (s) => ({
      kind: "elsewhere",
      recordedDecisions: s.type === "run-error" ? (s.recordedDecisions ?? []) : [],
      reason: "The question was cancelled elsewhere.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "already-resolved",
    servers: BOTH,
    verdict: "elsewhere",
    on: CODED,
    when: hasCode(OutcomeCode.ALREADY_RESOLVED),
    decide: (s) => ({
      kind: "elsewhere",
      recordedDecisions: s.type === "run-error" ? (s.recordedDecisions ?? []) : [],
      reason: "The question was already answered differently elsewhere.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "in-progress",
    servers: BOTH,
    verdict: "retry",
    on: CODED,
    when: hasCode(OutcomeCode.IN_PROGRESS),
    decide: (s) => ({
      kind: "retry",
      ...(s.type === "run-error" && s.claimedBy !== undefined ? { reattachRunId: s.claimedBy } : {}),
      ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
      reason: `Another submission for this question is in progress. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "background-poll-in-progress",
    servers: BOTH,
    verdict: "retry",
    on: CODED,
    when: hasCode(OutcomeCode.BACKGROUND_POLL_IN_PROGRESS),
    decide: (s) => ({
      kind: "retry",
      ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
      reason: "Another poll of this background run is in progress; polling again shortly.",
      error: errorOf(s),
    }),
  }),
  row({
    // The server names no interrupt in this code's RUN_ERROR (the cut tool's, when
    // it does): only a hydration tells which answer's question is open again.
    id: "batch-indeterminate",
    servers: CONTRACT,
    verdict: "hydrate_then_decide",
    on: CODED,
    when: (s, c) => c.inBatch === true && s.code === OutcomeCode.INDETERMINATE,
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "One action of this batch was cut off; checking the conversation for what each answer did.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "indeterminate",
    servers: BOTH,
    verdict: "lost",
    on: CODED,
    when: hasSuffix(["_INDETERMINATE"]),
    decide: (s) => ({ kind: "lost", reason: LOST, error: errorOf(s) }),
  }),
  row({
    id: "background-delivery-rejected",
    servers: BOTH,
    verdict: "lost",
    on: CODED,
    when: hasCode(OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED),
    decide: (s) => ({
      kind: "lost",
      reason: "The action ran but its result could not be delivered to the agent. Your answer is kept.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "background-token-stale",
    servers: BOTH,
    verdict: "status_then_hydrate",
    on: CODED,
    when: hasCode(OutcomeCode.BACKGROUND_TOKEN_STALE),
    decide: (s) => ({
      kind: "status_then_hydrate",
      reason: "The background run moved on; fetching its current state.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "background-token-unknown",
    servers: BOTH,
    verdict: "status_then_hydrate",
    on: CODED,
    when: hasCode(OutcomeCode.BACKGROUND_TOKEN_UNKNOWN),
    decide: (s) => ({
      kind: "status_then_hydrate",
      reason: "The server no longer knows this background run's token; fetching its current state.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "not-found-never-sent",
    servers: BOTH,
    verdict: "needs_user",
    on: CODED,
    when: (s, c) => s.code === OutcomeCode.NOT_FOUND && !c.sentBefore && !c.acked,
    decide: (s) => ({
      kind: "needs_user",
      hydrate: true,
      reason: "This question is no longer open on the server. Your answer is kept; refresh to see what is.",
      error: failureOf(s),
    }),
  }),
  row({
    id: "not-found-after-send",
    servers: BOTH,
    verdict: "hydrate_then_decide",
    on: CODED,
    when: (s, c) => s.code === OutcomeCode.NOT_FOUND && (c.sentBefore || c.acked),
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason:
        "The server no longer lists the question after an earlier send; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "tool-unavailable",
    servers: BOTH,
    verdict: "retry",
    on: CODED,
    when: hasCode(OutcomeCode.TOOL_UNAVAILABLE),
    decide: (s) => ({
      kind: "retry",
      ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
      reason: `The action is unavailable right now, and nothing ran. ${SENT_AGAIN}`,
      error: errorOf(s),
      // The server's own word that this attempt ran nothing: counted as evidence.
      nothingRan: true,
    }),
  }),
  row({
    id: "rejected-code",
    servers: BOTH,
    verdict: "needs_user",
    on: CODED,
    when: hasSuffix(["_EXPIRED", "_REQUIRED", "_MISSING_INTERRUPT", "_INVALID", "_INVALID_RESPONSE"]),
    decide: (s) => ({
      kind: "needs_user",
      // Expired, required and missing interrupts mean the card no longer matches the
      // thread; an invalid payload is the answer's own problem.
      hydrate: !(s.code?.endsWith("_INVALID") === true || s.code?.endsWith("_INVALID_RESPONSE") === true),
      reason: "The server cannot accept this answer as it is. Your answer is kept; review it.",
      error: failureOf(s),
    }),
  }),
  // pydantic-ai-slim 2.68.0 (ui/_adapter.py), with the conversation on the server: a
  // resume for a call the stored conversation no longer waits on is refused with this
  // RUN_ERROR, after RUN_STARTED, and nothing runs. It says the question was answered,
  // not how, and a finished conversation cannot be hydrated to find out.
  row({
    id: "pydantic-ai-not-waiting-first-send",
    servers: DEGRADED,
    verdict: "elsewhere",
    on: ["run-error"],
    when: (s, c) =>
      c.serverFamily === "pydantic-ai" && !c.sentBefore && PYDANTIC_AI_NOT_WAITING.test(s.message ?? ""),
    decide: (s) => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was already answered elsewhere.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "pydantic-ai-not-waiting-after-send",
    servers: DEGRADED,
    verdict: "lost",
    on: ["run-error"],
    when: (s, c) =>
      c.serverFamily === "pydantic-ai" && c.sentBefore && PYDANTIC_AI_NOT_WAITING.test(s.message ?? ""),
    decide: (s) => ({ kind: "lost", reason: LOST, error: errorOf(s) }),
  }),
  // The same adapter with the conversation held by the client (its default) refuses a
  // request without the whole conversation, before any tool runs. Our answers carry only
  // the resume, so no resend can succeed, and its hydration fails the same way.
  row({
    id: "pydantic-ai-history-missing",
    servers: DEGRADED,
    verdict: "needs_user",
    on: ["run-error"],
    when: (s, c) => c.serverFamily === "pydantic-ai" && PYDANTIC_AI_NO_HISTORY.test(s.message ?? ""),
    decide: (s) => ({
      kind: "needs_user",
      hydrate: false,
      reason: "This server needs the whole conversation with each request; nothing ran. Your answer is kept.",
      error: failureOf(s),
    }),
  }),
  row({
    id: "degraded-error-after-run-started",
    servers: DEGRADED,
    verdict: "hydrate_then_decide",
    on: ["run-error"],
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "The run failed after the answer was accepted; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "run-error-after-claim",
    servers: CONTRACT,
    verdict: "retry",
    on: ["run-error"],
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "retry",
      reason: `The run failed after the answer was accepted; nothing is repeated. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "degraded-exception-before-run-started",
    servers: DEGRADED,
    verdict: "retry",
    on: ["run-error"],
    when: (s, c) =>
      !c.acked && s.type === "run-error" && s.code !== undefined && !s.code.startsWith("APPROVAL_"),
    decide: (s) => ({
      kind: "retry",
      reason: `The server failed before confirming the answer. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "run-error-unknown",
    servers: BOTH,
    verdict: "needs_user",
    on: ["run-error"],
    decide: (s) => ({
      kind: "needs_user",
      hydrate: false,
      reason: "The server refused the answer for a reason this client does not know. Your answer is kept.",
      error: failureOf(s),
    }),
  }),
  row({
    id: "http-transient",
    servers: BOTH,
    verdict: "retry",
    on: ["http-status"],
    when: (s) => s.status >= 500 || [408, 409, 425, 429].includes(s.status),
    decide: (s) => ({
      kind: "retry",
      ...(s.retryAfterMs === undefined ? {} : { retryAfterMs: s.retryAfterMs }),
      reason: `The server is busy or unavailable. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "http-rejected",
    servers: BOTH,
    verdict: "needs_user",
    on: ["http-status"],
    when: (s) => s.status === 400 || s.status === 422,
    decide: (s) => ({
      kind: "needs_user",
      hydrate: false,
      reason: "The server rejected the request. Your answer is kept.",
      error: failureOf(s),
    }),
  }),
  row({
    id: "http-unexpected",
    servers: BOTH,
    verdict: "needs_user",
    on: ["http-status"],
    decide: (s) => ({
      kind: "needs_user",
      hydrate: false,
      reason: "The server answered in an unexpected way. Your answer is kept.",
      error: failureOf(s),
    }),
  }),
  row({
    id: "break-before-ack",
    servers: BOTH,
    verdict: "retry",
    on: BREAKS,
    when: (_s, c) => !c.acked,
    decide: (s) => ({ kind: "retry", reason: `The connection failed. ${SENT_AGAIN}`, error: errorOf(s) }),
  }),
  row({
    id: "break-after-ack",
    servers: CONTRACT,
    verdict: "reattach",
    on: BREAKS,
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "reattach",
      reason: "The connection dropped after the answer was accepted; reconnecting to the run.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "degraded-break-after-tool-results",
    servers: DEGRADED,
    verdict: "applied",
    on: [...BREAKS, "invalid-stream"],
    when: (s, c) => c.acked && c.decision === "approve" && s.toolResultsSeen === true,
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: RAN_END_UNSEEN,
      error: null,
    }),
  }),
  row({
    id: "degraded-break-after-run-started",
    servers: DEGRADED,
    verdict: "hydrate_then_decide",
    on: [...BREAKS, "invalid-stream"],
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason:
        "The connection dropped after the answer was accepted; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "invalid-stream-before-ack",
    servers: BOTH,
    verdict: "retry",
    on: ["invalid-stream"],
    when: (_s, c) => !c.acked,
    decide: (s) => ({
      kind: "retry",
      reason: `The server's answer was unreadable. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "invalid-stream-after-ack",
    servers: CONTRACT,
    verdict: "status_then_hydrate",
    on: ["invalid-stream"],
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "status_then_hydrate",
      reason: "The run's events were unreadable; fetching its status.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "reattach-gone",
    servers: BOTH,
    verdict: "status_then_hydrate",
    on: ["reattach-gone"],
    decide: (s) => ({
      kind: "status_then_hydrate",
      reason: "The run's event log is gone; fetching its status.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "status-running",
    servers: BOTH,
    verdict: "retry",
    on: ["run-status"],
    when: (s) => s.status === "running",
    decide: (s) => ({ kind: "retry", reason: `The run is still going. ${SENT_AGAIN}`, error: errorOf(s) }),
  }),
  row({
    id: "status-not-found",
    servers: BOTH,
    verdict: "hydrate_then_decide",
    on: ["run-status"],
    when: (s) => s.status === "not-found",
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "The server no longer knows the run; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    // Nothing was sent from here, and the server no longer asks: the question was
    // answered on another device, or cancelled. Whatever ran, this answer did not.
    id: "hydrated-never-sent-closed",
    servers: BOTH,
    verdict: "elsewhere",
    on: ["hydrated"],
    when: (s, c) => c.neverSent === true && !s.interruptStillOpen,
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason:
        "The question was closed before this answer was sent: it was answered on another device, or cancelled. Nothing was sent from here.",
      error: null,
    }),
  }),
  row({
    id: "hydrated-approve-tool-result",
    servers: BOTH,
    verdict: "applied",
    on: ["hydrated"],
    when: (s, c) => c.decision === "approve" && s.toolEvidence === "ran",
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: "The answer took effect (confirmed from the conversation).",
      error: null,
    }),
  }),
  row({
    id: "hydrated-approve-rejected",
    servers: BOTH,
    verdict: "elsewhere",
    on: ["hydrated"],
    when: (s, c) => c.decision === "approve" && s.toolEvidence === "rejected",
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was answered differently elsewhere: it was rejected, and the action did not run.",
      error: null,
    }),
  }),
  row({
    // Another answer of the batch was cut off: this one's question is open again (its
    // result, if its tool ran, kept for the resend), but the same body is refused for good.
    id: "hydrated-batch-cut-still-open",
    servers: CONTRACT,
    verdict: "needs_user",
    on: ["hydrated"],
    when: (s, c) =>
      c.cutOffInBatch === true &&
      s.interruptStillOpen &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run"),
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason:
        "Another action sent with it was cut off, so the server set this answer aside: its question is open again. Your answer is kept; send it again on its own (an action that already ran never runs twice).",
      error: { kind: "run_error", message: BATCH_CUT },
    }),
  }),
  row({
    // Every attempt was answered with the server's explicit "nothing ran": the
    // question still open is the answer still sendable, never lost.
    id: "hydrated-approve-nothing-ran",
    servers: BOTH,
    verdict: "retry",
    on: ["hydrated"],
    when: (s, c) =>
      c.decision === "approve" &&
      c.nothingRan === true &&
      s.interruptStillOpen &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run"),
    decide: () => ({
      kind: "retry",
      reason: STILL_OPEN,
      error: null,
    }),
  }),
  row({
    id: "hydrated-approve-nothing-ran-closed",
    servers: BOTH,
    verdict: "needs_user",
    on: ["hydrated"],
    when: (s, c) =>
      c.decision === "approve" &&
      c.nothingRan === true &&
      !s.interruptStillOpen &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run"),
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason: `The question is no longer open on the server: ${NOT_TAKEN}`,
      error: { kind: "run_error", message: "Each attempt: APPROVAL_TOOL_UNAVAILABLE." },
    }),
  }),
  // pydantic-ai saves the conversation only when a run ends: a run cut after
  // RUN_STARTED leaves the question open although the tool may have run, and it runs
  // an identical resend again (no idempotency).
  row({
    id: "pydantic-ai-open-after-cut",
    servers: DEGRADED,
    verdict: "lost",
    on: ["hydrated"],
    when: (s, c) =>
      c.serverFamily === "pydantic-ai" &&
      c.decision === "approve" &&
      c.acked &&
      s.interruptStillOpen &&
      (s.toolEvidence === "none" || s.toolEvidence === "may_have_run"),
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    // "Lost" needs evidence the tool may have run: a question still open with
    // nothing run is retried with the same key (the budget, then a stall, brakes it).
    id: "hydrated-approve-still-open",
    servers: BOTH,
    verdict: "retry",
    on: ["hydrated"],
    // On a contract server an open question is the occurrence still PENDING: nothing
    // claimed it. Agent Framework 1.0.1 shows a consumed question as open while
    // every resend is NOT_FOUND, so there only a never-sent answer is retried. Nor one
    // whose RUN_STARTED arrived: the server took it, and ag-ui-langgraph 0.0.47 keeps
    // the run going after the stream drops, its thread showing the question open until
    // the tool's step commits; a resend then can run the tool twice.
    when: (s, c) =>
      c.decision === "approve" &&
      (c.serverKind === "contract" || (!c.sentBefore && !c.acked)) &&
      s.interruptStillOpen &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run"),
    decide: () => ({
      kind: "retry",
      reason: STILL_OPEN,
      error: null,
    }),
  }),
  row({
    id: "hydrated-approve-not-run",
    servers: BOTH,
    verdict: "needs_user",
    on: ["hydrated"],
    // The thread holds the server's marker that the tool never started: not lost.
    when: (s, c) => c.decision === "approve" && s.toolEvidence === "not_run",
    decide: () => ({
      kind: "needs_user",
      hydrate: true,
      reason: NOT_RUN,
      error: { kind: "run_error", message: "The server's marker says the tool never started." },
    }),
  }),
  row({
    id: "hydrated-approve-no-tool-result",
    servers: BOTH,
    verdict: "lost",
    on: ["hydrated"],
    when: (s, c) =>
      c.decision === "approve" && (s.toolEvidence === "none" || s.toolEvidence === "may_have_run"),
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    id: "hydrated-decline-tool-result",
    servers: BOTH,
    verdict: "elsewhere",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && s.toolEvidence === "ran",
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was answered differently elsewhere: the action ran.",
      error: null,
    }),
  }),
  row({
    id: "hydrated-decline-may-have-run",
    servers: BOTH,
    verdict: "lost",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && s.toolEvidence === "may_have_run",
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    id: "hydrated-decline-rejected",
    servers: BOTH,
    verdict: "applied",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && s.toolEvidence === "rejected",
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: "The answer took effect: the conversation records the rejection, and the action did not run.",
      error: null,
    }),
  }),
  row({
    id: "hydrated-decline-closed",
    servers: BOTH,
    verdict: "applied",
    on: ["hydrated"],
    when: (s, c) =>
      c.decision !== "approve" &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run") &&
      !s.interruptStillOpen,
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: "The answer took effect (confirmed from the conversation).",
      error: null,
    }),
  }),
  row({
    id: "hydrated-decline-still-open",
    servers: BOTH,
    verdict: "lost",
    on: ["hydrated"],
    when: (s, c) =>
      c.decision !== "approve" &&
      (s.toolEvidence === "none" || s.toolEvidence === "not_run") &&
      s.interruptStillOpen,
    // After RUN_STARTED on a server without the contract the server took the answer,
    // and the open question may only be a thread read before the run moved on.
    decide: (_s, c) => ({
      kind: "lost",
      reason:
        c.serverKind === "degraded" && c.acked
          ? "The server took the answer, but cannot tell yet whether it took effect. Your answer is kept; check the result before answering again."
          : "The server did not take the answer and the question is still open. Your answer is kept.",
      error: null,
    }),
  }),
  row({
    id: "retry-budget-exhausted",
    servers: BOTH,
    verdict: "hydrate_then_decide",
    on: ["retry-budget-exhausted"],
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "Delivery kept failing; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
];
