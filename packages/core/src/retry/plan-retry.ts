import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { type BackoffOptions, nextDelay } from "./backoff";
import { isRetryBudgetExhausted, type RetryBudgetOptions } from "./retry-budget";

export interface PlanRetryInput {
  /** Sends made so far, the one that just failed included (at least 1). */
  readonly attempts: number;
  /** Epoch milliseconds of the first send. */
  readonly firstAttemptAt: number;
  /** The current time in epoch milliseconds. */
  readonly now: number;
  /** From the failed response's `Retry-After` header. */
  readonly retryAfterMs?: number | undefined;
  /** The stream's last `retry:` value. */
  readonly serverRetryMs?: number | undefined;
}

export interface PlanRetryOptions {
  readonly backoff?: BackoffOptions;
  readonly budget?: RetryBudgetOptions;
}

export type RetryPlan =
  | { readonly kind: "retry"; readonly delayMs: number; readonly retryAt: number }
  | { readonly kind: "exhausted"; readonly error: OutboxError };

/**
 * The one decision after a retryable failure: wait `delayMs` (until `retryAt`)
 * and send again with the same key and body, or stop because the budget ran
 * out. Pure: the caller supplies the clock and persists `retryAt` as the
 * entry's `nextAttemptAt`, so a reload keeps honouring `Retry-After`.
 */
export function planRetry(input: PlanRetryInput, options: PlanRetryOptions = {}): RetryPlan {
  const delayMs = nextDelay(
    {
      attempt: Math.max(0, input.attempts - 1),
      retryAfterMs: input.retryAfterMs,
      serverRetryMs: input.serverRetryMs,
    },
    options.backoff,
  );
  const exhausted = isRetryBudgetExhausted(
    { attempts: input.attempts, firstAttemptAt: input.firstAttemptAt, now: input.now, nextDelayMs: delayMs },
    options.budget,
  );
  if (exhausted) {
    return {
      kind: "exhausted",
      error: new OutboxError(
        ErrorKind.retryBudgetExhausted,
        `Gave up retrying after ${input.attempts} attempt(s) over ${Math.max(0, input.now - input.firstAttemptAt)} ms`,
      ),
    };
  }
  return { kind: "retry", delayMs, retryAt: input.now + delayMs };
}
