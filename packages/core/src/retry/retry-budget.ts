/**
 * When to stop retrying on our own and tell the person instead. An answer is
 * never dropped when the budget runs out: the entry keeps it and the app shows
 * "needs you" rather than a spinner that never ends.
 */
export interface RetryBudgetOptions {
  /**
   * Sends of one entry (the first one included) after which no retry is
   * scheduled. With the default backoff, 12 sends span about two minutes of
   * trying, Retry-After aside.
   * @default 12
   */
  readonly maxAttempts?: number;
  /**
   * Time from the first send past which no retry is scheduled: a retry whose
   * planned start falls later is refused.
   * @default 900_000 (15 minutes)
   */
  readonly maxElapsedMs?: number;
}

export const DEFAULT_RETRY_MAX_ATTEMPTS = 12;
export const DEFAULT_RETRY_MAX_ELAPSED_MS = 15 * 60_000;

export interface RetryBudgetInput {
  /** Sends made so far, the one that just failed included. */
  readonly attempts: number;
  /** Epoch milliseconds of the first send. */
  readonly firstAttemptAt: number;
  /** The current time in epoch milliseconds. */
  readonly now: number;
  /** The planned wait before the next send. */
  readonly nextDelayMs: number;
}

/** True when the next retry would exceed the attempt count or the elapsed-time budget. */
export function isRetryBudgetExhausted(input: RetryBudgetInput, options: RetryBudgetOptions = {}): boolean {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY_MAX_ATTEMPTS;
  const maxElapsedMs = options.maxElapsedMs ?? DEFAULT_RETRY_MAX_ELAPSED_MS;
  if (input.attempts >= maxAttempts) return true;
  return input.now + input.nextDelayMs - input.firstAttemptAt > maxElapsedMs;
}
