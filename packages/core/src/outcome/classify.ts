import type { OutcomeContext } from "./context";
import type { DeliverySignal } from "./delivery-signal";
import type { Verdict } from "./verdict";
import { errorOf, VERDICT_RULES, type VerdictRule } from "./verdict-rules";

/** The rule id of the verdict returned when no row matches (the table is total; tests keep it so). */
export const UNMATCHED_RULE = "unmatched";

/** The first `VERDICT_RULES` rule matching the signal in this context, if any. */
export function findVerdictRow(signal: DeliverySignal, context: OutcomeContext): VerdictRule | undefined {
  return VERDICT_RULES.find((candidate) => candidate.matches(signal, context));
}

/**
 * Turns what the transport observed into a verdict, by DESIGN.md's table.
 * Pure and total: it never throws, and a signal no row covers becomes
 * `needs_user` with the raw failure kept, never a silent retry.
 */
export function classifyOutcome(signal: DeliverySignal, context: OutcomeContext): Verdict {
  const matched = findVerdictRow(signal, context);
  if (matched) return { ...matched.decide(signal, context), rule: matched.id };
  return {
    kind: "needs_user",
    rule: UNMATCHED_RULE,
    hydrate: false,
    reason: "The server answered in a way this client does not recognise. Your answer is kept.",
    error: errorOf(signal) ?? { kind: "run_error", message: `Unrecognised ${signal.type} signal.` },
  };
}
