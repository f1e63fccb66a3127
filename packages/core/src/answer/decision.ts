import type { AnswerInput } from "../client/client-types";
import type { Decision } from "../outbox/entry";

/** The person's answer as the entry keeps it. */
export function decisionOf(input: AnswerInput): Decision {
  if ("cancelled" in input) return { kind: "cancel" };
  if (input.approved)
    return {
      kind: "approve",
      ...(input.editedArgs ? { editedArgs: input.editedArgs } : {}),
      ...(input.reason ? { reason: input.reason } : {}),
    };
  return input.reason ? { kind: "reject", reason: input.reason } : { kind: "reject" };
}

/** Key-order-insensitive comparison: `{a, b}` and `{b, a}` are the same edit. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/** Two answers are the same when they decide the same way with the same edits (a double click). */
export function sameDecision(a: Decision, b: Decision): boolean {
  return canonical(a) === canonical(b);
}
