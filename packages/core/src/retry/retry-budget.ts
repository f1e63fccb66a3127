/** When to stop retrying and tell the person instead; the answer is kept either way. */
export interface RetryBudgetOptions {
  /** Sends of one entry after which none is scheduled (about two minutes of backoff). @default 12 */
  readonly maxAttempts?: number;
  /** Time from the first send past which no retry may start. @default 900_000 (15 minutes) */
  readonly maxElapsedMs?: number;
}

export const DEFAULT_RETRY_MAX_ATTEMPTS = 12;
export const DEFAULT_RETRY_MAX_ELAPSED_MS = 15 * 60_000;

export interface RetryBudgetInput {
  readonly attempts: number;
  readonly firstAttemptAt: number;
  readonly now: number;
  readonly nextDelayMs: number;
}

export function isRetryBudgetExhausted(input: RetryBudgetInput, options: RetryBudgetOptions = {}): boolean {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY_MAX_ATTEMPTS;
  const maxElapsedMs = options.maxElapsedMs ?? DEFAULT_RETRY_MAX_ELAPSED_MS;
  if (input.attempts >= maxAttempts) return true;
  return input.now + input.nextDelayMs - input.firstAttemptAt > maxElapsedMs;
}
