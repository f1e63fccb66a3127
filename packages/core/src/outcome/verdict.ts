import type { EntryError } from "../outbox/entry";
import type { RecordedDecision } from "../protocol/extensions";

/**
 * What the classifier concluded about a delivery signal. Six kinds are
 * verdicts the app shows (`applied`, `elsewhere`, `retry`, `lost`,
 * `needs_user`, `paused`); four are instructions to the transport
 * (`reattach`, `status_then_hydrate`, `hydrate_then_decide`, `continue`) whose
 * follow-up signal is classified in turn.
 */
export const VerdictKind = {
  /** The answer took effect (possibly earlier, and now replayed). */
  applied: "applied",
  /** Another decision resolved the interrupt first. */
  elsewhere: "elsewhere",
  /** Send again later with the same key, `runId` and body. */
  retry: "retry",
  /** The claim was acknowledged and the stream broke: re-attach with `Last-Event-ID`. */
  reattach: "reattach",
  /** Re-attach was refused (404/410): read the run status, then hydrate the thread. */
  statusThenHydrate: "status_then_hydrate",
  /** The answer may have been consumed: hydrate the thread and classify what it shows. */
  hydrateThenDecide: "hydrate_then_decide",
  /** The outcome cannot be known (the tool may have run); the answer is kept. */
  lost: "lost",
  /** The answer cannot be delivered as is; the person must act. Never retried automatically. */
  needsUser: "needs_user",
  /** 401/403: wait until the app re-authenticates. */
  paused: "paused",
  /** Not an outcome: keep reading the stream (`RUN_STARTED`). */
  continue: "continue",
} as const;
export type VerdictKind = (typeof VerdictKind)[keyof typeof VerdictKind];

interface VerdictCommon {
  /** Id of the `VERDICT_TABLE` row that produced the verdict. */
  readonly rule: string;
  /** One sentence for the person; never quotes the answer. */
  readonly reason: string;
  /** The failure behind the verdict, for `entry.lastError`; null when there was none. */
  readonly error: EntryError | null;
}

export interface AppliedVerdict extends VerdictCommon {
  readonly kind: "applied";
  /** The server replayed a recorded outcome instead of running anything. */
  readonly replayed: boolean;
  readonly originalRunId?: string;
}

export interface ElsewhereVerdict extends VerdictCommon {
  readonly kind: "elsewhere";
  /** The decisions the server recorded, to show instead of ours (empty when it named none). */
  readonly recordedDecisions: readonly RecordedDecision[];
}

export interface RetryVerdict extends VerdictCommon {
  readonly kind: "retry";
  /** The server's `Retry-After`, in ms; the next attempt waits at least this long. */
  readonly retryAfterMs?: number;
  /** The run holding the claim: follow it before sending again. */
  readonly reattachRunId?: string;
  /** The server said explicitly that nothing ran for this attempt (counted on the entry as evidence). */
  readonly nothingRan?: boolean;
}

export interface ReattachVerdict extends VerdictCommon {
  readonly kind: "reattach";
}

export interface StatusThenHydrateVerdict extends VerdictCommon {
  readonly kind: "status_then_hydrate";
}

export interface HydrateThenDecideVerdict extends VerdictCommon {
  readonly kind: "hydrate_then_decide";
}

export interface LostVerdict extends VerdictCommon {
  readonly kind: "lost";
}

export interface NeedsUserVerdict extends VerdictCommon {
  readonly kind: "needs_user";
  /** The raw code and message are kept here; never dropped. */
  readonly error: EntryError;
  /** The card is stale: hydrate the thread so the person sees what is really open. */
  readonly hydrate: boolean;
}

export interface PausedVerdict extends VerdictCommon {
  readonly kind: "paused";
  readonly status: 401 | 403;
}

export interface ContinueVerdict extends VerdictCommon {
  readonly kind: "continue";
  /** The run holds our claim (contract) or the tool is running (degraded): dispatch `claim-acked`. */
  readonly acked: boolean;
}

export type Verdict =
  | AppliedVerdict
  | ElsewhereVerdict
  | RetryVerdict
  | ReattachVerdict
  | StatusThenHydrateVerdict
  | HydrateThenDecideVerdict
  | LostVerdict
  | NeedsUserVerdict
  | PausedVerdict
  | ContinueVerdict;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A verdict before the table stamps the producing row's id on it. */
export type VerdictBody = DistributiveOmit<Verdict, "rule">;
