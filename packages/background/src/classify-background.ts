import type { DeliverySignal, Verdict } from "@agui-outbox/core";
import type { OutcomeContext } from "@agui-outbox/core/internal";
import { classifyOutcome } from "@agui-outbox/core/internal";

/**
 * Background runs are a contract feature and carry no answer of their own: no
 * claim ack is involved, so an unknown `RUN_ERROR` code is "needs you" (never a
 * blind retry) and a dropped connection is a plain retry of the same token.
 */
const BACKGROUND_CONTEXT: OutcomeContext = {
  serverKind: "contract",
  sentBefore: true,
  acked: false,
  decision: "approve",
};

/** A poll's failure (HTTP status, network, unreadable body, failed run) through DESIGN.md's table. */
export function classifyBackgroundSignal(signal: DeliverySignal): Verdict {
  return classifyOutcome(signal, BACKGROUND_CONTEXT);
}

/**
 * The verdict table's sentences speak of "your answer"; a background run has
 * none, so its two lost cases get their own sentence saying what the person
 * must know: whether the tool ran.
 */
const BACKGROUND_REASONS: Readonly<Record<string, string>> = {
  indeterminate:
    "A tool was cut off while it ran: it may or may not have taken effect, and it will not be run again. Check its effect before starting over.",
  "background-delivery-rejected":
    "The tool ran, but its result could not be delivered to the agent, so the run cannot finish. Check its effect before starting over.",
};

/** The sentence to show for a background verdict. */
export function backgroundReason(verdict: Verdict): string {
  return BACKGROUND_REASONS[verdict.rule] ?? verdict.reason;
}
