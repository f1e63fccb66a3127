/**
 * Full-jitter exponential backoff: `random() * min(cap, base * 2^attempt)`.
 * Full jitter spreads the retries of many clients that failed together (a
 * server restart) across the whole window instead of in synchronized waves.
 */
export interface BackoffOptions {
  /**
   * The window of the first retry, in milliseconds.
   * @default 1_000
   */
  readonly baseMs?: number;
  /**
   * The largest window, in milliseconds.
   * @default 30_000
   */
  readonly capMs?: number;
  /**
   * A source of numbers in [0, 1).
   * @default Math.random
   */
  readonly random?: () => number;
}

export interface NextDelayInput {
  /** 0 for the first retry, 1 for the second, and so on. */
  readonly attempt: number;
  /** From the response's `Retry-After` header (see `parseRetryAfter`). */
  readonly retryAfterMs?: number | undefined;
  /** The stream's last `retry:` value. */
  readonly serverRetryMs?: number | undefined;
}

export const DEFAULT_BACKOFF_BASE_MS = 1_000;
export const DEFAULT_BACKOFF_CAP_MS = 30_000;

/** The jittered backoff alone, in milliseconds, for the 0-based `attempt`. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const baseMs = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const capMs = options.capMs ?? DEFAULT_BACKOFF_CAP_MS;
  const random = options.random ?? (() => Math.random());
  const exponent = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  // 2 ** exponent overflows to Infinity long after the cap wins; min() absorbs it.
  const window = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.floor(clampUnit(random()) * window);
}

/**
 * How long to wait before the next attempt: `max(Retry-After, serverRetry, backoff)`.
 * The server's `Retry-After` always wins when it is larger (no request earlier
 * than allowed) and is not capped: an over-long one is the retry budget's call.
 * The stream's `retry:` value is a floor in the same way.
 */
export function nextDelay(input: NextDelayInput, options: BackoffOptions = {}): number {
  return Math.max(
    backoffDelay(input.attempt, options),
    nonNegative(input.retryAfterMs),
    nonNegative(input.serverRetryMs),
  );
}

function nonNegative(ms: number | undefined): number {
  return ms === undefined || !(ms > 0) ? 0 : ms;
}

// A misbehaving injected random must not produce a negative or over-long delay.
function clampUnit(value: number): number {
  if (!(value > 0)) return 0;
  return Math.min(value, 1);
}
