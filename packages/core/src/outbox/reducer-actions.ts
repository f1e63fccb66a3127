import type { Verdict } from "../outcome/verdict";

/**
 * Everything that can happen to an outbox entry. Every action carries `at`
 * (epoch ms from the injected clock): the reducer never reads a clock.
 */
export type EntryAction =
  /** A `POST /agent` with the entry's body is about to go out. */
  | { readonly type: "attempt-started"; readonly at: number }
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
   * came back online). Not to be dispatched while a server's `Retry-After` holds.
   */
  | { readonly type: "retry-now"; readonly at: number }
  /** The retention window passed with no verdict reachable. Ignored before `expiresAt`. */
  | { readonly type: "expired"; readonly at: number }
  /** The page started again; nothing of the previous page is in flight any more. */
  | { readonly type: "recovered-on-start"; readonly at: number };

export type EntryActionType = EntryAction["type"];
