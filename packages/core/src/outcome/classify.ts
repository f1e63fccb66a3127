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

/** The verdict for a signal, by DESIGN.md's table: pure and total, an unmatched signal is `needs_user`. */
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
