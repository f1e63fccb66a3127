import type { OutboxEntry } from "../outbox/entry";
import { classifyOutcome } from "../outcome/classify";
import { outcomeContext } from "../outcome/context";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import { type PlanRetryOptions, planRetry } from "../retry/plan-retry";

/*
 * What to do next with one entry, given what the transport last observed. Pure:
 * the engine performs the decision (a request, a durable write, a timer) and
 * feeds the next signal back in.
 *
 *   signal ─▶ classify ─┬─ continue ─────────────────────────────▶ stop (the stream goes on)
 *                       ├─ reattach ─┬─ fewer than the limit ──────▶ reattach
 *                       │            └─ limit reached ─▶ retry path (resend, same key)
 *                       ├─ status_then_hydrate ─────────────────────▶ status
 *                       ├─ hydrate_then_decide ─────────────────────▶ hydrate
 *                       ├─ retry ─┬─ within budget ─────────────────▶ wait(at)
 *                       │         └─ budget spent ─▶ classify "retry-budget-exhausted" once
 *                       └─ applied | elsewhere | lost | needs_user | paused ─▶ settle
 */

export type DeliveryDecision =
  /** `RUN_STARTED` is handled inline by the stream: nothing to decide. */
  | { readonly type: "stop" }
  /** GET the run's events after the entry's cursor. */
  | { readonly type: "reattach" }
  /** GET the run's status; a gone run falls back to hydration. */
  | { readonly type: "status" }
  /** Hydrate the thread and look for the tool result. */
  | { readonly type: "hydrate" }
  /** Persist `retry_wait` until `at`, then send again with the same key and bytes. */
  | { readonly type: "wait"; readonly at: number; readonly verdict: Verdict }
  /** Persist the verdict. */
  | { readonly type: "settle"; readonly verdict: Verdict };

/** Counters of the delivery in progress. */
export interface DeliveryCounters {
  /** Re-attaches in a row that brought no new event. */
  readonly reattachesWithoutProgress: number;
  /** The retry budget was found spent (and the thread checked) in this delivery. */
  readonly budgetSpent: boolean;
}

export interface DeliveryStepContext {
  readonly serverKind: ServerKind;
  readonly now: number;
  readonly retry: PlanRetryOptions;
  /** A uniform draw in [0, 1) for the backoff's full jitter, taken by the caller. */
  readonly jitter: number;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  readonly serverRetryMs: number | undefined;
  readonly maxReattachesWithoutProgress: number;
  readonly counters: DeliveryCounters;
}

export interface DeliveryStep {
  readonly decision: DeliveryDecision;
  readonly counters: DeliveryCounters;
}

export const RESEND_REASON = "The stream could not be re-attached; sending again with the same key.";

export const BUDGET_EXHAUSTED_REASON =
  "Delivery kept failing; the answer is kept. Retry when the connection is back.";

export function deliveryStep(
  entry: OutboxEntry,
  signal: DeliverySignal,
  context: DeliveryStepContext,
): DeliveryStep {
  const verdict = classifyOutcome(signal, outcomeContext(entry, context.serverKind));
  const counters = context.counters;
  switch (verdict.kind) {
    case "continue":
      return { decision: { type: "stop" }, counters };
    case "reattach":
      if (counters.reattachesWithoutProgress >= context.maxReattachesWithoutProgress) {
        // Re-attaching keeps failing: send again with the same key, later. The
        // server attaches a repeated submission to its run or replays its outcome.
        const resend: Verdict = {
          kind: "retry",
          rule: verdict.rule,
          reason: RESEND_REASON,
          error: verdict.error,
        };
        return retryStep(entry, resend, undefined, context);
      }
      return { decision: { type: "reattach" }, counters };
    case "status_then_hydrate":
      return { decision: { type: "status" }, counters };
    case "hydrate_then_decide":
      return { decision: { type: "hydrate" }, counters };
    case "retry":
      // Also when another submission holds the claim (`reattachRunId`): wait, then ask again.
      return retryStep(entry, verdict, verdict.retryAfterMs, context);
    default:
      return { decision: { type: "settle", verdict }, counters };
  }
}

/** The retry path on its own: wait within the budget; once spent, check the thread, then ask the person. */
export function retryStep(
  entry: OutboxEntry,
  verdict: Verdict,
  retryAfterMs: number | undefined,
  context: DeliveryStepContext,
): DeliveryStep {
  const plan = planRetry(
    {
      attempts: Math.max(1, entry.attempts),
      firstAttemptAt: entry.createdAt,
      now: context.now,
      retryAfterMs,
      serverRetryMs: context.serverRetryMs,
    },
    { ...context.retry, backoff: { random: () => context.jitter, ...context.retry.backoff } },
  );
  if (plan.kind === "retry") {
    return { decision: { type: "wait", at: plan.retryAt, verdict }, counters: context.counters };
  }
  if (!context.counters.budgetSpent) {
    // Before concluding anything, the thread is checked for the result.
    const counters = { ...context.counters, budgetSpent: true };
    return deliveryStep(
      entry,
      { type: "retry-budget-exhausted", attempts: entry.attempts },
      { ...context, counters },
    );
  }
  return {
    decision: {
      type: "settle",
      verdict: {
        kind: "needs_user",
        rule: "retry-budget-exhausted",
        reason: BUDGET_EXHAUSTED_REASON,
        error: { kind: plan.error.kind, message: plan.error.message },
        hydrate: false,
      },
    },
    counters: context.counters,
  };
}
