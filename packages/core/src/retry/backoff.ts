/** Full-jitter backoff, `random() * min(cap, base * 2^attempt)`: clients that failed together spread out. */
export interface BackoffOptions {
  /** The first retry's window, in ms. @default 1_000 */
  readonly baseMs?: number;
  /** @default 30_000 */
  readonly capMs?: number;
  /** @default Math.random */
  readonly random?: () => number;
}

export interface NextDelayInput {
  /** 0 for the first retry. */
  readonly attempt: number;
  readonly retryAfterMs?: number | undefined;
  /** The stream's last `retry:`. */
  readonly serverRetryMs?: number | undefined;
}

export const DEFAULT_BACKOFF_BASE_MS = 1_000;
export const DEFAULT_BACKOFF_CAP_MS = 30_000;

export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const baseMs = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const capMs = options.capMs ?? DEFAULT_BACKOFF_CAP_MS;
  const random = options.random ?? (() => Math.random());
  const exponent = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  // 2 ** exponent overflows to Infinity long after the cap wins; min() absorbs it.
  const window = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.floor(clampUnit(random()) * window);
}

/** `max(Retry-After, retry:, backoff)`: never earlier than the server allows; the budget caps the rest. */
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
