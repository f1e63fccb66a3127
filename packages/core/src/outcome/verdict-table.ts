import type { EntryError } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import type { OutcomeContext } from "./context";
import type { DeliverySignal, DeliverySignalType, ServerKind } from "./delivery-signal";
import type { VerdictBody, VerdictKind } from "./verdict";

/**
 * DESIGN.md's verdict table as data: one row per line of the table (contract
 * and degraded), first match wins. `classifyOutcome` walks it; the docs print it.
 * Where DESIGN.md leaves a case open, the row's `decision` says what was chosen.
 */
export interface VerdictRow {
  /** Stable id; stamped on every verdict as `rule`. */
  readonly id: string;
  /** The server generations the row applies to. */
  readonly servers: readonly ServerKind[];
  /** The signal column, in wire terms. */
  readonly signal: string;
  /** The verdict column. */
  readonly verdict: VerdictKind;
  /** Why this signal means this verdict. */
  readonly description: string;
  /** What was decided where DESIGN.md is ambiguous or silent. */
  readonly decision?: string;
  /** The `DeliverySignal` types the row can match. */
  readonly signalTypes: readonly DeliverySignalType[];
  readonly matches: (signal: DeliverySignal, context: OutcomeContext) => boolean;
  readonly decide: (signal: DeliverySignal, context: OutcomeContext) => VerdictBody;
}

type SignalOf<T extends DeliverySignalType> = Extract<DeliverySignal, { type: T }>;

interface RowSpec<T extends DeliverySignalType>
  extends Pick<VerdictRow, "id" | "servers" | "signal" | "verdict" | "description" | "decision"> {
  readonly on: readonly T[];
  readonly when?: (signal: SignalOf<T>, context: OutcomeContext) => boolean;
  readonly decide: (signal: SignalOf<T>, context: OutcomeContext) => VerdictBody;
}

function row<T extends DeliverySignalType>(spec: RowSpec<T>): VerdictRow {
  const types: readonly DeliverySignalType[] = spec.on;
  const is = (signal: DeliverySignal): signal is SignalOf<T> => types.includes(signal.type);
  const when = spec.when;
  return {
    id: spec.id,
    servers: spec.servers,
    signal: spec.signal,
    verdict: spec.verdict,
    description: spec.description,
    ...(spec.decision === undefined ? {} : { decision: spec.decision }),
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

export const VERDICT_TABLE: readonly VerdictRow[] = [
  row({
    id: "http-unauthorized",
    servers: BOTH,
    signal: "HTTP 401/403",
    verdict: "paused",
    description: "Credentials were refused: wait until the app re-authenticates, then send the same request.",
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
    id: "run-finished",
    servers: BOTH,
    signal: "RUN_FINISHED after our resume, or with x-resume.replayed",
    verdict: "applied",
    description: "The run that carried the answer finished, or the server replayed the recorded outcome.",
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
    signal: "RUN_STARTED (x-resume.ack = claimed)",
    verdict: "continue",
    description: "Not an outcome: the claim ack moves the entry to streaming; from here a break re-attaches.",
    decision: "RUN_STARTED without the ack is read as not acked: a break then retries with the same key.",
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
    signal: "RUN_STARTED after our resume (no contract)",
    verdict: "continue",
    description:
      "The server consumed the answer and runs the tool: from here a failure is not a plain retry but a reconciliation.",
    on: ["run-started"],
    decide: () => ({ kind: "continue", acked: true, reason: "The server accepted the answer.", error: null }),
  }),
  row({
    id: "degraded-invalid-indeterminate",
    servers: DEGRADED,
    signal: 'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "indeterminate"',
    verdict: "lost",
    description: "The server folds an interrupted tool into INVALID: the tool may have run.",
    decision:
      "Checked before the other INVALID texts: a message naming several cases ends in the safest verdict.",
    on: CODED,
    when: invalidSaying(/indeterminate/i),
    decide: (s) => ({ kind: "lost", reason: LOST, error: errorOf(s) }),
  }),
  row({
    id: "degraded-invalid-conflicts",
    servers: DEGRADED,
    signal: 'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "conflicts"',
    verdict: "elsewhere",
    description: "A different decision was already taken for the interrupt.",
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
    signal:
      'RUN_ERROR APPROVAL_RESUME_INVALID mentioning "not pending", "in progress" or "already being processed"',
    verdict: "retry",
    description:
      "Another submission is in flight (or was just consumed); an identical retry is replayed or settles once it ends.",
    decision: "Bounded by the retry budget, whose exhaustion reconciles by hydration.",
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
    signal: "RUN_ERROR APPROVAL_RESUME_CANCELLED after a cancel we sent",
    verdict: "applied",
    description: "Servers without the contract report an accepted cancellation as an error.",
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
    signal: "RUN_ERROR APPROVAL_RESUME_CANCELLED when we did not cancel",
    verdict: "elsewhere",
    description: "Someone else cancelled the interrupt before our answer arrived.",
    decision:
      "DESIGN.md names CANCELLED only for our own cancel; anyone else's cancel resolved the interrupt first.",
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
    id: "degraded-error-after-run-started",
    servers: DEGRADED,
    signal: "RUN_ERROR (any other code, e.g. an exception name) after RUN_STARTED",
    verdict: "hydrate_then_decide",
    description:
      "The tool already ran and the server keeps no claim to roll back: a retry could run it twice, so read the thread.",
    on: ["run-error"],
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "The run failed after the answer was accepted; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "already-resolved",
    servers: BOTH,
    signal: "RUN_ERROR APPROVAL_RESUME_ALREADY_RESOLVED",
    verdict: "elsewhere",
    description: "A different decision resolved the occurrence; the recorded decision rides along.",
    decision: "Also as the code of an HTTP error body: the code outranks the status (except 401/403).",
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
    signal: "RUN_ERROR APPROVAL_RESUME_IN_PROGRESS",
    verdict: "retry",
    description: "Another submission holds the claim: follow the claiming run if named, else back off.",
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
    signal: "BACKGROUND_POLL_IN_PROGRESS",
    verdict: "retry",
    description: "A concurrent poll of the same token won; poll again later.",
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
    id: "indeterminate",
    servers: BOTH,
    signal: "…_INDETERMINATE (APPROVAL_RESUME_INDETERMINATE, BACKGROUND_TOOL_RESULT_INDETERMINATE)",
    verdict: "lost",
    description:
      "A tool was cut off mid-execution with no stored result: it may have run. Never retried automatically.",
    on: CODED,
    when: hasSuffix(["_INDETERMINATE"]),
    decide: (s) => ({ kind: "lost", reason: LOST, error: errorOf(s) }),
  }),
  row({
    id: "background-delivery-rejected",
    servers: BOTH,
    signal: "BACKGROUND_TOOL_DELIVERY_REJECTED",
    verdict: "lost",
    description: "The tool ran but its result was refused for good: the outcome cannot be completed.",
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
    signal: "BACKGROUND_TOKEN_STALE",
    verdict: "status_then_hydrate",
    description: "The held continuation token was already advanced: the run status holds the newer token.",
    decision:
      "No dedicated verdict: the status route returns `continuationToken`, so status-then-hydrate covers it; the transport keeps polling with the newer token.",
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
    signal: "BACKGROUND_TOKEN_UNKNOWN",
    verdict: "status_then_hydrate",
    description:
      "The server no longer knows the token (retention passed): reconcile from status, then the thread.",
    decision: "DESIGN.md is silent; treated like a stale token, since a re-poll could not succeed either.",
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
    signal: "APPROVAL_RESUME_NOT_FOUND, never sent before",
    verdict: "needs_user",
    description: "The interrupt was never pending here: the card is stale. Hydrate to show what is open.",
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
    signal: "APPROVAL_RESUME_NOT_FOUND after our own earlier send",
    verdict: "hydrate_then_decide",
    description:
      "The answer may have been consumed by an earlier attempt (servers without the contract answer NOT_FOUND on every retry): never read it as never pending.",
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
    signal: "RUN_ERROR APPROVAL_TOOL_UNAVAILABLE",
    verdict: "retry",
    description: "The approved tool could not be reached; nothing ran.",
    on: CODED,
    when: hasCode(OutcomeCode.TOOL_UNAVAILABLE),
    decide: (s) => ({
      kind: "retry",
      ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
      reason: `The action is unavailable right now. ${SENT_AGAIN}`,
      error: errorOf(s),
    }),
  }),
  row({
    id: "rejected-code",
    servers: BOTH,
    signal: "…_EXPIRED, …_REQUIRED, …_MISSING_INTERRUPT, …_INVALID, …_INVALID_RESPONSE",
    verdict: "needs_user",
    description: "The request itself cannot succeed as is; never retried automatically.",
    decision:
      "On a server without the contract, an APPROVAL_RESUME_INVALID whose message matches none of the known texts lands here.",
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
  row({
    id: "run-error-after-claim",
    servers: CONTRACT,
    signal: "any other RUN_ERROR after the claim ack",
    verdict: "retry",
    description:
      "The server rolled the claim back keeping stored tool results: a same-key retry never re-executes.",
    decision:
      "An unknown code after the claim retries too: the contract makes the retry safe, the retry budget ends it, and the raw message is kept in lastError.",
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
    signal: "RUN_ERROR with an exception-name code (not APPROVAL_*) before RUN_STARTED (no contract)",
    verdict: "retry",
    description:
      "Agent Framework reports a failing tool or model call by exception name, and it may already have consumed the answer: an identical resume is answered from its own records (NOT_FOUND, replay or INVALID), never run again.",
    decision:
      "DESIGN.md's unknown-code rule is for servers with the contract. Without it these codes are routine, and the retry is what makes the server say what became of the answer; the retry budget bounds it.",
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
    signal: "RUN_ERROR with an unknown (or no) code before the claim",
    verdict: "needs_user",
    description: "Never dropped, never silently retried forever: the raw code and message are kept.",
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
    signal: "HTTP 5xx, 429, 409 (also 408, 425)",
    verdict: "retry",
    description: "Transient refusal: retry with the same key, no sooner than Retry-After.",
    decision: "408 Request Timeout and 425 Too Early are transient by definition and join the list.",
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
    signal: "HTTP 400/422 (e.g. IDEMPOTENCY_KEY_REUSED)",
    verdict: "needs_user",
    description: "The request is malformed or the key was reused with another body: resending cannot help.",
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
    signal: "any other HTTP status (404, 405, 413, …)",
    verdict: "needs_user",
    description: "A status the contract does not use for resumes: kept raw, never silently retried.",
    decision: "DESIGN.md is silent on other statuses; they follow the unknown-code rule.",
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
    signal:
      "network error, EOF or heartbeat timeout before the claim ack (before RUN_STARTED without the contract)",
    verdict: "retry",
    description: "Nothing was claimed (or nothing ran): resend the same bytes with the same key.",
    on: BREAKS,
    when: (_s, c) => !c.acked,
    decide: (s) => ({ kind: "retry", reason: `The connection failed. ${SENT_AGAIN}`, error: errorOf(s) }),
  }),
  row({
    id: "break-after-ack",
    servers: CONTRACT,
    signal: "network error, EOF or heartbeat timeout after the claim ack",
    verdict: "reattach",
    description: "The run keeps going server-side: re-attach with Last-Event-ID.",
    on: BREAKS,
    when: (_s, c) => c.acked,
    decide: (s) => ({
      kind: "reattach",
      reason: "The connection dropped after the answer was accepted; reconnecting to the run.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "degraded-break-after-run-started",
    servers: DEGRADED,
    signal: "network error, EOF, heartbeat timeout or unreadable stream after RUN_STARTED (no contract)",
    verdict: "hydrate_then_decide",
    description: "The tool ran and there is no re-attach route: read the thread instead of resending.",
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
    signal: "unreadable 200 (not an event stream, malformed SSE, invalid JSON, invalid event) before the ack",
    verdict: "retry",
    description:
      "Nothing was claimed: resend the same bytes; a proxy page or a truncated frame is usually transient.",
    decision:
      "DESIGN.md is silent. Retried like a break, bounded by the retry budget (whose exhaustion reconciles by hydration); the typed error is kept in lastError.",
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
    signal: "unreadable stream after the claim ack",
    verdict: "status_then_hydrate",
    description:
      "The run holds our claim; the run status carries its terminal event without re-reading the stream.",
    decision:
      "DESIGN.md is silent. Re-attaching would replay the same unreadable frame, so read the status route instead.",
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
    signal: "re-attach answered 404 or 410",
    verdict: "status_then_hydrate",
    description: "The event log is unknown or expired: read the run status, then hydrate the thread.",
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
    signal: "run status: running (no terminal event yet)",
    verdict: "retry",
    description:
      "The run holds the claim and has not ended: back off, then a same-key retry replays it or says in progress.",
    decision: "DESIGN.md is silent; a same-key retry is the contract's way to get a recorded outcome.",
    on: ["run-status"],
    when: (s) => s.status === "running",
    decide: (s) => ({ kind: "retry", reason: `The run is still going. ${SENT_AGAIN}`, error: errorOf(s) }),
  }),
  row({
    id: "status-not-found",
    servers: BOTH,
    signal: "run status: 404",
    verdict: "hydrate_then_decide",
    description: "The server forgot the run: only the thread can tell.",
    on: ["run-status"],
    when: (s) => s.status === "not-found",
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "The server no longer knows the run; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
  row({
    id: "hydrated-approve-tool-result",
    servers: BOTH,
    signal: "hydration after an approval: the thread shows the tool result",
    verdict: "applied",
    description: "The approved tool ran: the answer took effect.",
    on: ["hydrated"],
    when: (s, c) => c.decision === "approve" && s.toolResultSeen,
    decide: () => ({
      kind: "applied",
      replayed: false,
      reason: "The answer took effect (confirmed from the conversation).",
      error: null,
    }),
  }),
  row({
    id: "hydrated-approve-no-tool-result",
    servers: BOTH,
    signal: "hydration after an approval: no tool result in the thread",
    verdict: "lost",
    description: "The answer may have been consumed without a visible result: keep it and tell the person.",
    decision:
      "Also when the interrupt still shows as open: the server refused the answer, so resending is the person's call.",
    on: ["hydrated"],
    when: (s, c) => c.decision === "approve" && !s.toolResultSeen,
    decide: () => ({ kind: "lost", reason: LOST, error: null }),
  }),
  row({
    id: "hydrated-decline-tool-result",
    servers: BOTH,
    signal: "hydration after a reject or cancel: the thread shows the tool result",
    verdict: "elsewhere",
    description: "The tool ran, so someone approved: our reject or cancel did not decide.",
    decision:
      "DESIGN.md speaks of the tool result only; a reject or cancel never leaves one, so the rule is mirrored.",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && s.toolResultSeen,
    decide: () => ({
      kind: "elsewhere",
      recordedDecisions: [],
      reason: "The question was answered differently elsewhere: the action ran.",
      error: null,
    }),
  }),
  row({
    id: "hydrated-decline-closed",
    servers: BOTH,
    signal: "hydration after a reject or cancel: interrupt closed, no tool result",
    verdict: "applied",
    description: "The interrupt closed without the tool running: the reject or cancel took effect.",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && !s.toolResultSeen && !s.interruptStillOpen,
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
    signal: "hydration after a reject or cancel: interrupt still open",
    verdict: "lost",
    description:
      "The server refused the answer yet still shows the question: keep the answer and tell the person.",
    on: ["hydrated"],
    when: (s, c) => c.decision !== "approve" && !s.toolResultSeen && s.interruptStillOpen,
    decide: () => ({
      kind: "lost",
      reason: "The server did not take the answer and the question is still open. Your answer is kept.",
      error: null,
    }),
  }),
  row({
    id: "retry-budget-exhausted",
    servers: BOTH,
    signal: "the retry budget ran out",
    verdict: "hydrate_then_decide",
    description: "Stop sending; an earlier attempt may still have taken effect, so the thread decides.",
    decision:
      "DESIGN.md is silent; hydrating keeps the promise that an unknown outcome is never reported as a failure to send.",
    on: ["retry-budget-exhausted"],
    decide: (s) => ({
      kind: "hydrate_then_decide",
      reason: "Delivery kept failing; checking the conversation for the result.",
      error: errorOf(s),
    }),
  }),
];
