/**
 * Where a background run stands for the person, as the client sees it.
 * Three are final (`completed`, `lost`, `needs_user`): nothing is polled
 * after them on its own and the record is kept until the app discards it.
 */
export const BackgroundVerdict = {
  /**
   * Written before the start request: the server may or may not have the run
   * yet. The start is sent (again) with the same `Idempotency-Key` and bytes
   * until the server answers with the run; a repeat never starts a second one.
   */
  starting: "starting",
  /** Polling with the held continuation token (the next poll is at `nextPollAt`). */
  polling: "polling",
  /** A poll failed transiently; the same token is polled again at `nextPollAt`. */
  retryWait: "retry_wait",
  /** The server refused our credentials (401/403): nothing is polled until `resumeAfterAuth()`. */
  paused: "paused",
  /** The run finished and every event was applied to the thread. */
  completed: "completed",
  /** A tool may have run, or ran without its result being delivered: the outcome cannot be completed. */
  lost: "lost",
  /** The client cannot go on by itself (unknown code, retry budget spent, run forgotten). */
  needsUser: "needs_user",
} as const;
export type BackgroundVerdict = (typeof BackgroundVerdict)[keyof typeof BackgroundVerdict];

export const FINAL_BACKGROUND_VERDICTS: ReadonlySet<BackgroundVerdict> = new Set([
  BackgroundVerdict.completed,
  BackgroundVerdict.lost,
  BackgroundVerdict.needsUser,
]);

export function isFinalBackgroundVerdict(verdict: BackgroundVerdict): boolean {
  return FINAL_BACKGROUND_VERDICTS.has(verdict);
}
