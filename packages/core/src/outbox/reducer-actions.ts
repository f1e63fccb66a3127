import type { Verdict } from "../outcome/verdict";
import type { DeliveryCounters, EntryError, OutboxEntry } from "./entry";

/**
 * Everything that can happen to an outbox entry. Every action carries `at`
 * (epoch ms from the injected clock): the reducer never reads a clock.
 */
export type EntryAction =
  /**
   * A `POST /agent` with the entry's body is about to go out. `body`: the bytes
   * built now, for an entry whose body could not be built earlier; never
   * replaces a body already fixed.
   */
  | { readonly type: "attempt-started"; readonly at: number; readonly body?: string }
  /**
   * Every question of the run is answered: a `held` entry is queued, with the
   * shared resume run and body (empty while the server kind is unknown) and, on
   * every answer but the sending one, the key of the entry that sends for it.
   */
  | {
      readonly type: "sealed";
      readonly runId: string;
      readonly body: string;
      readonly sendsWith?: string;
      readonly at: number;
    }
  /** The entry that sends for this one's batch changed: mirror its delivery progress. */
  | { readonly type: "follow"; readonly leader: OutboxEntry; readonly at: number }
  /** The delivery's counters changed (re-attaches without progress, server failures…). */
  | {
      readonly type: "counted";
      readonly counters: DeliveryCounters;
      readonly at: number;
      /**
       * A failure met on the way (a read that failed), kept as the entry's last
       * error; null clears it (the read succeeded and no failure stands behind it).
       */
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
  /** A frame with this SSE sequence number was processed. */
  | { readonly type: "event-seen"; readonly seq: number; readonly at: number }
  /**
   * The classifier's verdict. `nextAttemptAt` is the caller's backoff for
   * `retry` (and an optional delay for `reattach`); the reducer never lets it
   * undercut the verdict's `retryAfterMs`.
   */
  | {
      readonly type: "verdict";
      readonly verdict: Verdict;
      readonly at: number;
      readonly nextAttemptAt?: number;
    }
  /** The app re-authenticated after a 401/403. */
  | { readonly type: "resumed-auth"; readonly at: number }
  /**
   * Skip the rest of a backoff (the person pressed "retry now", or the browser
   * came back online), or resume a stalled entry with a fresh budget. Not to be
   * dispatched while a server's `Retry-After` holds.
   */
  | { readonly type: "retry-now"; readonly at: number }
  /** The retention window passed with no verdict reachable. Ignored before `expiresAt`. */
  | { readonly type: "expired"; readonly at: number }
  /** The page started again; nothing of the previous page is in flight any more. */
  | { readonly type: "recovered-on-start"; readonly at: number };

export type EntryActionType = EntryAction["type"];
