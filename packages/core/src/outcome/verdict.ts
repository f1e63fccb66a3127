import type { EntryError } from "../outbox/entry";
import type { RecordedDecision } from "../protocol/extensions";

/** What the classifier concluded. The last four are instructions whose follow-up is classified in turn. */
export const VerdictKind = {
  /** The answer took effect (possibly earlier, and now replayed). */
  applied: "applied",
  /** Another decision resolved the interrupt first. */
  elsewhere: "elsewhere",
  /** Send again later with the same key, `runId` and body. */
  retry: "retry",
  /** The outcome cannot be known (the tool may have run); the answer is kept. */
  lost: "lost",
  /** The person must act; never retried automatically. */
  needsUser: "needs_user",
  /** 401/403: wait until the app re-authenticates. */
  paused: "paused",
  /** Re-attach with `Last-Event-ID`. */
  reattach: "reattach",
  /** Re-attach was refused: read the run status, then hydrate. */
  statusThenHydrate: "status_then_hydrate",
  hydrateThenDecide: "hydrate_then_decide",
  /** `RUN_STARTED`: keep reading the stream. */
  continue: "continue",
} as const;
export type VerdictKind = (typeof VerdictKind)[keyof typeof VerdictKind];

interface VerdictCommon {
  /** Id of the `VERDICT_TABLE` row that produced the verdict. */
  readonly rule: string;
  /** One sentence for the person; never quotes the answer. */
  readonly reason: string;
  /** For `entry.lastError`. */
  readonly error: EntryError | null;
}

/** What the classifier concluded; `rule` names the verdict-table row. */
export type Verdict = VerdictCommon &
  (
    | {
        readonly kind: "applied";
        /** The server replayed a recorded outcome instead of running anything. */
        readonly replayed: boolean;
        readonly originalRunId?: string;
      }
    | {
        readonly kind: "elsewhere";
        /** The decisions the server recorded, to show instead of ours (empty when it named none). */
        readonly recordedDecisions: readonly RecordedDecision[];
      }
    | {
        readonly kind: "retry";
        /** The server's `Retry-After`, in ms; the next attempt waits at least this long. */
        readonly retryAfterMs?: number;
        /** Follow the run holding the claim first. */
        readonly reattachRunId?: string;
        /** The server said nothing ran (counted on the entry as evidence). */
        readonly nothingRan?: boolean;
      }
    | { readonly kind: "reattach" | "status_then_hydrate" | "hydrate_then_decide" | "lost" }
    | {
        readonly kind: "needs_user";
        /** The raw code and message, never dropped. */
        readonly error: EntryError;
        /** The card is stale: hydrate so the person sees what is really open. */
        readonly hydrate: boolean;
      }
    | { readonly kind: "paused"; readonly status: 401 | 403 }
    /** `acked`: dispatch `claim-acked`. */
    | { readonly kind: "continue"; readonly acked: boolean }
  );

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A verdict before its rule id is stamped on it. */
export type VerdictBody = DistributiveOmit<Verdict, "rule">;
