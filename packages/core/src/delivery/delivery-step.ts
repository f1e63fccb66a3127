import type { DeliveryCounters, OutboxEntry } from "../outbox/entry";
import { countersOf } from "../outbox/reducer";
import { classifyOutcome } from "../outcome/classify";
import { type OutcomeContext, outcomeContext } from "../outcome/context";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import { nextDelay } from "../retry/backoff";
import type { PlanRetryOptions } from "../retry/plan-retry";
import { isRetryBudgetExhausted } from "../retry/retry-budget";

/*
 * What to do next with one entry, given the last signal. Pure; the counters it reads live
 * on the entry, so a reload decides exactly as the page before it would have.
 *
 *   signal ─▶ classify ─┬─ continue ─────────────────────────────▶ stop (the stream goes on)
 *                       ├─ reattach ─┬─ fewer than the limit ──────▶ reattach (after a backoff once one failed)
 *                       │            └─ limit reached ─▶ retry path (resend, same key)
 *                       ├─ status_then_hydrate ─────────────────────▶ status
 *                       ├─ hydrate_then_decide ─────────────────────▶ hydrate
 *                       ├─ retry ─┬─ within budget ─────────────────▶ wait(at)
 *                       │         └─ budget spent (server failures only)
 *                       │                ├─ thread not checked yet ─▶ hydrate
 *                       │                └─ checked ────────────────▶ stall (not final)
 *                       └─ applied | elsewhere | lost | needs_user | paused ─▶ settle
 */

export type DeliveryDecision =
  | { readonly type: "stop" }
  | { readonly type: "reattach" }
  /** GET the run's status (a gone run hydrates); `cause`: the failure shown while the read goes. */
  | { readonly type: "status"; readonly cause: Verdict["error"] }
  | { readonly type: "hydrate"; readonly cause: Verdict["error"] }
  | { readonly type: "wait"; readonly at: number; readonly verdict: Verdict }
  | { readonly type: "stall"; readonly reason: string; readonly error: Verdict["error"] }
  | { readonly type: "settle"; readonly verdict: Verdict };

export interface DeliveryStepContext {
  readonly serverKind: ServerKind;
  readonly now: number;
  readonly retry: PlanRetryOptions;
  readonly jitter: number;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  readonly serverRetryMs: number | undefined;
}

/** Re-attaches in a row without a new event before falling back to a resend. */
const MAX_REATTACHES_WITHOUT_PROGRESS = 2;

export interface DeliveryStep {
  readonly decision: DeliveryDecision;
  readonly counters: DeliveryCounters;
}

export const RESEND_REASON = "The stream could not be re-attached; sending again with the same key.";

export const STALLED_REASON =
  "Delivery kept failing on the server's side; it resumes when you retry or come back.";

/** The stall after the server kept saying the action is unavailable: nothing ran, the answer is sendable. */
export const UNAVAILABLE_STALLED_REASON =
  "The action is still unavailable, and nothing ran; it resumes when you retry or come back.";

/**
 * Failures the server itself answered count against the budget; a network that
 * is down, a cut stream or a stall do not (they back off, capped, forever).
 */
function isServerFailure(signal: DeliverySignal): boolean {
  return signal.type === "http-status" || signal.type === "run-error";
}

/** The one place a signal is classified: the rule table read in `entry`'s context. */
export function verdictOf(
  entry: OutboxEntry,
  signal: DeliverySignal,
  serverKind: ServerKind,
  extra?: Partial<OutcomeContext>,
): Verdict {
  return classifyOutcome(signal, { ...outcomeContext(entry, serverKind), ...extra });
}

export function deliveryStep(
  entry: OutboxEntry,
  signal: DeliverySignal,
  context: DeliveryStepContext,
): DeliveryStep {
  const verdict = verdictOf(entry, signal, context.serverKind);
  const counters = countersOf(entry);
  switch (verdict.kind) {
    case "continue":
      return { decision: { type: "stop" }, counters };
    case "reattach":
      if (counters.reattachesWithoutProgress >= MAX_REATTACHES_WITHOUT_PROGRESS) {
        // Re-attaching keeps failing: send again with the same key, later. The
        // server attaches a repeated submission to its run or replays its outcome.
        const resend: Verdict = {
          kind: "retry",
          rule: verdict.rule,
          reason: RESEND_REASON,
          error: verdict.error,
        };
        return retryStep(entry, resend, signal, { ...context, reattachReset: true });
      }
      return { decision: { type: "reattach" }, counters };
    case "status_then_hydrate":
      return { decision: { type: "status", cause: verdict.error }, counters };
    case "hydrate_then_decide":
      return { decision: { type: "hydrate", cause: verdict.error }, counters };
    case "retry":
      // Also when another submission holds the claim (`reattachRunId`): wait, then ask again.
      return retryStep(entry, verdict, signal, context);
    default:
      return { decision: { type: "settle", verdict }, counters };
  }
}

/** The retry path on its own: wait within the budget; once spent, check the thread, then stall. */
export function retryStep(
  entry: OutboxEntry,
  verdict: Verdict,
  signal: DeliverySignal | undefined,
  context: DeliveryStepContext & { readonly reattachReset?: boolean },
): DeliveryStep {
  const before = countersOf(entry);
  const counts = signal !== undefined && isServerFailure(signal);
  const nothingRan = verdict.kind === "retry" && verdict.nothingRan === true;
  const counters: DeliveryCounters = {
    ...before,
    serverFailures: before.serverFailures + (counts ? 1 : 0),
    reattachesWithoutProgress: context.reattachReset ? 0 : before.reattachesWithoutProgress,
    ...(nothingRan ? { nothingRan: (before.nothingRan ?? 0) + 1 } : {}),
  };
  const delayMs = nextDelay(
    {
      attempt: Math.max(0, entry.attempts - 1),
      retryAfterMs: verdict.kind === "retry" ? verdict.retryAfterMs : undefined,
      serverRetryMs: context.serverRetryMs,
    },
    { random: () => context.jitter, ...context.retry.backoff },
  );
  const exhausted =
    counts &&
    isRetryBudgetExhausted(
      {
        attempts: counters.serverFailures,
        firstAttemptAt: counters.firstSentAt ?? context.now,
        now: context.now,
        nextDelayMs: delayMs,
      },
      context.retry.budget,
    );
  if (!exhausted) {
    return { decision: { type: "wait", at: context.now + delayMs, verdict }, counters };
  }
  if (counters.budgetChecks === 0) {
    // Before anything is concluded, the thread is checked for the result.
    return {
      decision: { type: "hydrate", cause: verdict.error },
      counters: { ...counters, budgetChecks: 1 },
    };
  }
  return {
    decision: {
      type: "stall",
      reason: nothingRan ? UNAVAILABLE_STALLED_REASON : STALLED_REASON,
      error: {
        kind: "retry_budget_exhausted",
        message: `Gave up for now after ${counters.serverFailures} failed answer(s) from the server.`,
      },
    },
    counters,
  };
}
