import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { type BackoffOptions, nextDelay } from "./backoff";
import { isRetryBudgetExhausted, type RetryBudgetOptions } from "./retry-budget";

export interface PlanRetryInput {
  /** Sends so far, the failed one included. */
  readonly attempts: number;
  readonly firstAttemptAt: number;
  readonly now: number;
  readonly retryAfterMs?: number | undefined;
  readonly serverRetryMs?: number | undefined;
}

export interface PlanRetryOptions {
  readonly backoff?: BackoffOptions;
  readonly budget?: RetryBudgetOptions;
}

export type RetryPlan =
  | { readonly kind: "retry"; readonly delayMs: number; readonly retryAt: number }
  | { readonly kind: "exhausted"; readonly error: OutboxError };

/** After a retryable failure: wait until `retryAt` (persisted, so a reload honours it), or stop. */
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
