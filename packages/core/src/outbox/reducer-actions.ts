import type { Verdict } from "../outcome/verdict";
import type { DeliveryCounters, EntryError, OutboxEntry } from "./entry";

/** Everything that can happen to an entry; `at` comes from the injected clock, never read by the reducer. */
export type EntryAction =
  /** A POST is about to go; `body`: built now where it could not be earlier, never replacing a fixed one. */
  | { readonly type: "attempt-started"; readonly at: number; readonly body?: string }
  /** The run's questions are all answered: `held` is queued, with `sendsWith` on all but the sender. */
  | {
      readonly type: "sealed";
      readonly runId: string;
      readonly body: string;
      readonly sendsWith?: string;
      readonly at: number;
    }
  /** The entry that sends for this one's batch changed: mirror its delivery progress. */
  | { readonly type: "follow"; readonly leader: OutboxEntry; readonly at: number }
  | {
      readonly type: "counted";
      readonly counters: DeliveryCounters;
      readonly at: number;
      /** A failure met on the way, kept as the last error; null clears it. */
      readonly error?: EntryError | null;
    }
  /** Retries are spent or storage keeps failing: wait, not final, for online / visible / retry-now / start. */
  | {
      readonly type: "stalled";
      readonly reason: string;
      readonly error: EntryError | null;
      readonly at: number;
    }
  /** `RUN_STARTED` carried the claim ack (or, without the contract, arrived at all). */
  | { readonly type: "claim-acked"; readonly runId: string; readonly seq: number; readonly at: number }
  | { readonly type: "event-seen"; readonly seq: number; readonly at: number }
  /** The classifier's verdict; the reducer never lets `nextAttemptAt` undercut its `retryAfterMs`. */
  | {
      readonly type: "verdict";
      readonly verdict: Verdict;
      readonly at: number;
      readonly nextAttemptAt?: number;
    }
  /** The app re-authenticated after a 401/403. */
  | { readonly type: "resumed-auth"; readonly at: number }
  /** Skip a backoff or resume a stalled entry afresh; not while a server's `Retry-After` holds. */
  | { readonly type: "retry-now"; readonly at: number }
  /** The retention window passed with no verdict reachable. Ignored before `expiresAt`. */
  | { readonly type: "expired"; readonly at: number }
  | { readonly type: "recovered-on-start"; readonly at: number };

export type EntryActionType = EntryAction["type"];
