import { EntryState, type OutboxEntry } from "../outbox/entry";

/** A wall clock behind a finished timer by more than this has jumped. */
const CLOCK_SLACK_MS = 1_000;

/**
 * How long an entry still waits. `nextAttemptAt` is wall-clock time, which can jump: a wait never
 * outlasts its plan (`nextAttemptAt - updatedAt`), and once a timer saw it through (`waited`), a
 * clock lagging by over a second holds the answer no further.
 */
export function attemptWait(entry: OutboxEntry, now: number, waited: boolean): number {
  if (entry.state !== EntryState.retryWait || entry.nextAttemptAt === null) return 0;
  const left = entry.nextAttemptAt - now;
  if (waited && left > CLOCK_SLACK_MS) return 0;
  return Math.min(left, Math.max(0, entry.nextAttemptAt - entry.updatedAt));
}
