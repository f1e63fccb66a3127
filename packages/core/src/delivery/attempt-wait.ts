import { EntryState, type OutboxEntry } from "../outbox/entry";

/** A wall clock behind a finished timer by more than this has jumped. */
const CLOCK_SLACK_MS = 1_000;

/**
 * How long an entry still waits before its next attempt. Timers measure real
 * time; `nextAttemptAt` is wall-clock time, which can jump (a clock corrected
 * between page loads, or under a running page). A wait never lasts longer than
 * it was planned for (`nextAttemptAt - updatedAt`), and once a timer waited it
 * through (`waited`), a wall clock that lags by more than a second does not hold
 * the answer further. What a timer saw is this page's real time: a reload
 * starts it over, bounded by the planned wait the entry stores.
 */
export function attemptWait(entry: OutboxEntry, now: number, waited: boolean): number {
  if (entry.state !== EntryState.retryWait || entry.nextAttemptAt === null) return 0;
  const left = entry.nextAttemptAt - now;
  if (waited && left > CLOCK_SLACK_MS) return 0;
  return Math.min(left, Math.max(0, entry.nextAttemptAt - entry.updatedAt));
}
