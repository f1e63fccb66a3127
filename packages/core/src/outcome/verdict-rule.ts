import type { EntryError } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import type { OutcomeContext } from "./context";
import type { DeliverySignal, DeliverySignalType, ServerKind } from "./delivery-signal";
import type { ToolEvidence } from "./tool-evidence";
import type { VerdictBody, VerdictKind } from "./verdict";

/** One line of DESIGN.md's verdict table; its prose is in verdict-table.ts, which apps do not ship. */
export interface VerdictRule {
  /** Stable id; stamped on every verdict as `rule`. */
  readonly id: string;
  readonly servers: readonly ServerKind[];
  readonly verdict: VerdictKind;
  readonly signalTypes: readonly DeliverySignalType[];
  readonly matches: (signal: DeliverySignal, context: OutcomeContext) => boolean;
  readonly decide: (signal: DeliverySignal, context: OutcomeContext) => VerdictBody;
}

export type SignalOf<T extends DeliverySignalType> = Extract<DeliverySignal, { type: T }>;

/** What a rule says besides its verdict; the verdict's other fields follow from the signal. */
export interface Say<S> {
  readonly reason: string | ((signal: S, context: OutcomeContext) => string);
  /** needs_user: hydrate the stale card first. */
  readonly hydrate?: boolean | ((signal: S) => boolean);
  /** needs_user: this `run_error` message instead of the raw failure. */
  readonly error?: string;
  /** retry: the server said nothing ran (counted on the entry as evidence). */
  readonly nothingRan?: true;
  /** retry: follow the run named in `claimedBy`. */
  readonly follow?: true;
  /** elsewhere: ignore the server's recorded decisions. */
  readonly unrecorded?: true;
}

type Decide<S> = (signal: S, context: OutcomeContext) => VerdictBody;

/* @__NO_SIDE_EFFECTS__ */
export function rule<T extends DeliverySignalType>(
  id: string,
  servers: readonly ServerKind[],
  verdict: VerdictKind,
  on: readonly T[],
  when: ((signal: SignalOf<T>, context: OutcomeContext) => boolean) | null,
  say: string | Say<SignalOf<T>> | Decide<SignalOf<T>>,
): VerdictRule {
  const types: readonly DeliverySignalType[] = on;
  const is = (signal: DeliverySignal): signal is SignalOf<T> => types.includes(signal.type);
  return {
    id,
    servers,
    verdict,
    signalTypes: types,
    matches: (signal, context) =>
      servers.includes(context.serverKind) && is(signal) && (when === null || when(signal, context)),
    decide: (signal, context) => {
      // Safe to call without `matches` (docs, tests): a foreign signal is refused, not misread.
      if (!is(signal)) throw new TypeError(`Row ${id} cannot decide a ${signal.type} signal.`);
      if (typeof say === "function") return say(signal, context);
      return body(verdict, signal, context, typeof say === "string" ? { reason: say } : say);
    },
  };
}

function body<S extends DeliverySignal>(
  kind: VerdictKind,
  s: S,
  c: OutcomeContext,
  say: Say<S>,
): VerdictBody {
  const reason = typeof say.reason === "string" ? say.reason : say.reason(s, c);
  const error = errorOf(s);
  switch (kind) {
    case "applied":
      return { kind, replayed: false, reason, error: null };
    case "elsewhere": {
      const recorded = s.type === "run-error" && !say.unrecorded ? s.recordedDecisions : undefined;
      return { kind, recordedDecisions: recorded ?? [], reason, error };
    }
    case "retry":
      return {
        kind,
        ...(say.follow && s.type === "run-error" && s.claimedBy !== undefined
          ? { reattachRunId: s.claimedBy }
          : {}),
        ...(s.type === "http-status" && s.retryAfterMs !== undefined ? { retryAfterMs: s.retryAfterMs } : {}),
        reason,
        error,
        ...(say.nothingRan ? { nothingRan: true } : {}),
      };
    case "needs_user":
      return {
        kind,
        hydrate: typeof say.hydrate === "function" ? say.hydrate(s) : (say.hydrate ?? false),
        reason,
        error: say.error === undefined ? failureOf(s) : { kind: "run_error", message: say.error },
      };
    case "lost":
    case "reattach":
    case "status_then_hydrate":
    case "hydrate_then_decide":
      return { kind, reason, error };
    default:
      throw new TypeError(`A ${kind} rule decides for itself.`);
  }
}

// Predicates the rules combine. A field a signal lacks reads as undefined: no match.
type Fields = Partial<{
  replayed: boolean;
  toolEvidence: ToolEvidence;
  interruptStillOpen: boolean;
  code: string;
  message: string;
  askedAgain: boolean;
  skippedInBatch: boolean;
  toolResultsSeen: boolean;
}>;
export type When = (signal: Fields, context: OutcomeContext) => boolean;

export const all =
  (...whens: readonly When[]): When =>
  (s, c) =>
    whens.every((when) => when(s, c));
export const approve: When = (_s, c) => c.decision === "approve";
export const decline: When = (_s, c) => c.decision !== "approve";
export const acked: When = (_s, c) => c.acked;
export const notAcked: When = (_s, c) => !c.acked;
export const pydanticAi: When = (_s, c) => c.serverFamily === "pydantic-ai";
export const fresh: When = (s) => s.replayed === false;
export const open: When = (s) => s.interruptStillOpen === true;
export const closed: When = (s) => s.interruptStillOpen === false;
export const evidence =
  (...kinds: readonly ToolEvidence[]): When =>
  (s) =>
    s.toolEvidence !== undefined && kinds.includes(s.toolEvidence);
export const code =
  (wanted: string): When =>
  (s) =>
    s.code === wanted;
export const suffix =
  (...suffixes: readonly string[]): When =>
  (s) =>
    suffixes.some((end) => s.code?.endsWith(end) === true);
export const saying =
  (pattern: RegExp): When =>
  (s) =>
    pattern.test(s.message ?? "");
export const invalidSaying = (pattern: RegExp): When => all(code(OutcomeCode.INVALID), saying(pattern));

const NOT_KNOWN = {
  kind: "http",
  status: 404,
  code: OutcomeCode.RUN_NOT_FOUND,
  message: "The server does not know the run.",
} as const;

/** The failure a signal describes, as stored in `entry.lastError`. Never holds answer content. */
export function errorOf(signal: DeliverySignal): EntryError | null {
  const code = "code" in signal && signal.code !== undefined ? { code: signal.code } : {};
  switch (signal.type) {
    case "run-error":
      return { kind: "run_error", message: signal.message, ...code };
    case "http-status":
      return {
        kind: signal.status === 401 || signal.status === 403 ? "unauthorized" : "http",
        message: signal.message ?? `The server answered HTTP ${signal.status}.`,
        status: signal.status,
        ...code,
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
        ? { ...NOT_KNOWN }
        : {
            kind: "http",
            status: 410,
            code: OutcomeCode.EVENT_LOG_EXPIRED,
            message: "The run's event log has expired.",
          };
    case "run-status":
      return signal.status === "not-found" ? { ...NOT_KNOWN } : null;
    case "retry-budget-exhausted":
      return { kind: "retry_budget_exhausted", message: `Gave up after ${signal.attempts} attempts.` };
    default:
      return null;
  }
}

/** `errorOf` for rows that always have a failure behind them (needs_user keeps it raw). */
export function failureOf(signal: DeliverySignal): EntryError {
  return errorOf(signal) ?? { kind: "run_error", message: `Unexpected ${signal.type} signal.` };
}
