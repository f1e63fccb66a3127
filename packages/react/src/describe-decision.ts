import type { Decision } from "@agui-outbox/core";

function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** "target = prod, replicas = 2": edited arguments in words, for the person. */
export function describeArgs(args: Readonly<Record<string, unknown>>): string {
  return Object.entries(args)
    .map(([name, value]) => `${name} = ${formatValue(value)}`)
    .join(", ");
}

/** The kept decision as a sentence in the second person: "You approved (target = prod)." */
export function describeDecision(decision: Decision): string {
  switch (decision.kind) {
    case "approve": {
      const approved =
        decision.editedArgs && Object.keys(decision.editedArgs).length > 0
          ? `You approved with ${describeArgs(decision.editedArgs)}.`
          : "You approved.";
      return decision.reason ? `${approved} ${decision.reason}` : approved;
    }
    case "reject":
      return decision.reason ? `You rejected: ${decision.reason}` : "You rejected.";
    case "cancel":
      return "You cancelled the question.";
  }
}

/**
 * The user message that re-states a lost answer. It says the outcome is
 * unknown, so the agent checks before acting instead of acting twice.
 */
export function resendMessage(decision: Decision, question: string | undefined): string {
  const about = question ? ` to "${question}"` : "";
  const stated =
    decision.kind === "approve"
      ? decision.editedArgs && Object.keys(decision.editedArgs).length > 0
        ? `I approved it with ${describeArgs(decision.editedArgs)}`
        : "I approved it"
      : decision.kind === "reject"
        ? `I rejected it${decision.reason ? ` (${decision.reason})` : ""}`
        : "I cancelled it";
  return `My earlier answer${about} may not have arrived: ${stated}. Please check whether it was already done before acting on it.`;
}
