export {
  type BackoffOptions,
  backoffDelay,
  DEFAULT_BACKOFF_BASE_MS,
  DEFAULT_BACKOFF_CAP_MS,
  type NextDelayInput,
  nextDelay,
} from "./backoff";
export { type PlanRetryInput, type PlanRetryOptions, planRetry, type RetryPlan } from "./plan-retry";
export { parseHttpDate, parseRetryAfter } from "./retry-after";
export {
  DEFAULT_RETRY_MAX_ATTEMPTS,
  DEFAULT_RETRY_MAX_ELAPSED_MS,
  isRetryBudgetExhausted,
  type RetryBudgetInput,
  type RetryBudgetOptions,
} from "./retry-budget";
