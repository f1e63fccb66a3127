// A history in words, for a log: one line per step, and the steps before a violation.
import type { Violation } from "./check-history";
import type { History, HistoryStep } from "./history";

const short = (key: string): string => key.slice(0, 8);

/** The step a violation names, in words, for a log. */
export function describeStep(history: History, index: number): string {
  const step: HistoryStep | undefined = history.steps[index];
  if (step === undefined) return `end (after ${history.steps.length} steps)`;
  const at = `step ${index} (tab ${step.tab})`;
  if (step.kind === "load") return `${at}: page load`;
  if (step.kind === "request")
    return `${at}: ${step.loop} request${step.key ? ` key ${short(step.key)}` : ""}${step.answered ? "" : " (no response)"}${step.results?.length ? `, its response carrying the result of ${step.results.join(", ")}` : ""}${step.finishedAt !== undefined ? ` (finished before step ${step.finishedAt})` : ""}`;
  const error = step.lastError ? `, last error ${step.lastError}` : "";
  return `${at}: entry ${short(step.key)} (${step.interruptId}) → ${step.state}, attempts ${step.attempts}${error}`;
}

/** The first violation with its step, then the rest: what a soak prints. */
export function formatViolations(history: History, violations: readonly Violation[]): string[] {
  return violations.map(
    (violation) =>
      `[${violation.promise}] ${violation.message} — at ${describeStep(history, violation.step)}`,
  );
}

/** The steps leading to `index` (and it), one line each: what the client did before it broke a promise. */
export function historyExcerpt(history: History, index: number, before = 12): string[] {
  const from = Math.max(0, index - before);
  const lines: string[] = [];
  for (let at = from; at <= Math.min(index, history.steps.length - 1); at += 1)
    lines.push(describeStep(history, at));
  if (index >= history.steps.length) lines.push(describeStep(history, index));
  return lines;
}
