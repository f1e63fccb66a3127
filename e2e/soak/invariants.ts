// What must hold after every schedule, once faults have stopped and answers have settled.
import type { StoredEntry } from "../support/demo-page";
import type { Execution, Occurrence } from "../support/mock-control";
import type { Decision } from "./schedule";

/** The verdicts an answer may end in (DESIGN.md): anything else once faults stop is a violation. */
export const FINAL_VERDICTS: ReadonlySet<string> = new Set(["applied", "elsewhere", "lost", "needs_user"]);

export interface CardView {
  readonly tab: number;
  /** The question the card asks. */
  readonly interruptId: string;
  /** The card's `data-state`, or null when no card is on screen. */
  readonly state: string | null;
  /** The "You approved." line: the kept answer, as the person sees it. */
  readonly decisionText: string | null;
}

export interface Observation {
  readonly decision: Decision;
  /** Every question the run asked (one, or two answered in one resume). */
  readonly interruptIds: readonly string[];
  /** This thread's outbox entries, from IndexedDB. */
  readonly entries: readonly StoredEntry[];
  /** This thread's tool executions, from the mock's ledger. */
  readonly executions: readonly Execution[];
  readonly occurrences: readonly Occurrence[];
  readonly cards: readonly CardView[];
}

/** Every broken promise in one observation, in words; empty when all hold. */
export function checkInvariants(observed: Observation): string[] {
  const violations: string[] = [];
  const { entries, executions } = observed;

  // No answer dropped: each answer given is on disk, once.
  const questions = observed.interruptIds.length;
  if (entries.length === 0) violations.push("the answer is gone: no outbox entry");
  if (entries.length !== questions && entries.length > 0)
    violations.push(`${questions} answer(s) made ${entries.length} outbox entries`);
  for (const entry of entries) {
    if (!FINAL_VERDICTS.has(entry.state))
      violations.push(
        `an answer was left in state "${entry.state}" (attempts ${entry.attempts}, last error ${entry.lastError ? `${entry.lastError.kind ?? "?"} ${entry.lastError.code ?? ""}`.trim() : "none"})`,
      );
    if (entry.decision === null || entry.decision === undefined)
      violations.push(`the ${entry.state} answer lost its decision`);
  }

  // No tool executed twice for one decision.
  const runs = new Map<string, number>();
  for (const execution of executions)
    runs.set(execution.toolCallId, (runs.get(execution.toolCallId) ?? 0) + 1);
  for (const [toolCallId, count] of runs) {
    if (count > 1) violations.push(`tool call ${toolCallId} ran ${count} times`);
  }

  // "Applied" must be true: an approval ran the tool, a rejection did not.
  for (const entry of entries) {
    const ran = runs.get(entry.toolCallId ?? entry.interruptId) ?? 0;
    const occurrence = observed.occurrences.find((item) => item.interruptId === entry.interruptId);
    if (entry.state !== "applied") continue;
    const approved = observed.decision !== "reject";
    if (approved && ran !== 1) violations.push(`an approval shown as applied, but the tool ran ${ran} times`);
    if (!approved && ran !== 0) violations.push("a rejection shown as applied, but the tool ran");
    const expected = approved ? "RESOLVED" : "REJECTED";
    if (occurrence !== undefined && occurrence.state !== expected)
      violations.push(`applied, but the server's occurrence is ${occurrence.state}, not ${expected}`);
  }

  // Every open tab shows each verdict, with the answer kept on screen.
  for (const card of observed.cards) {
    const entry = entries.find((candidate) => candidate.interruptId === card.interruptId);
    if (entry === undefined) continue;
    if (card.state !== entry.state)
      violations.push(`tab ${card.tab} shows "${card.state ?? "no card"}" for a ${entry.state} answer`);
    if (!card.decisionText) violations.push(`tab ${card.tab} does not show the kept answer`);
  }
  return violations;
}
