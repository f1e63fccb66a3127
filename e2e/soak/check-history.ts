// The product's promises, asserted over one recorded history. Pure: a history in,
// the broken promises out, each at the first step that broke it.
import { type EntryStep, FINAL_STATES, type History, RESTING_STATES, type RequestStep } from "./history";

export type PromiseName =
  | "settles"
  | "one-verdict"
  | "claim-before-execution"
  | "at-most-once"
  | "applied-with-evidence"
  | "lost-without-evidence"
  | "budget"
  | "shown";

export interface Violation {
  readonly promise: PromiseName;
  /** Index into `history.steps`, or `history.steps.length` for what only the end shows. */
  readonly step: number;
  readonly message: string;
}

/** Every broken promise, the earliest step first; empty when all hold. */
export function checkHistory(history: History): Violation[] {
  const entries = entrySteps(history);
  const violations = [
    ...checkSettles(history, entries),
    ...checkOneVerdict(entries),
    ...checkExecutions(history, entries),
    ...checkVerdictEvidence(history, entries),
    ...checkBudgets(history),
    ...checkCards(history, entries),
  ];
  return violations.sort((a, b) => a.step - b.step);
}

interface IndexedEntry {
  readonly index: number;
  readonly step: EntryStep;
}

/** The thread's entry writes, with their step indexes, per key in order. */
function entrySteps(history: History): Map<string, IndexedEntry[]> {
  const byKey = new Map<string, IndexedEntry[]>();
  history.steps.forEach((step, index) => {
    if (step.kind !== "entry" || step.threadId !== history.threadId) return;
    const list = byKey.get(step.key) ?? [];
    list.push({ index, step });
    byKey.set(step.key, list);
  });
  return byKey;
}

function lastOf(list: readonly IndexedEntry[]): IndexedEntry {
  const last = list[list.length - 1];
  if (last === undefined) throw new Error("an entry without writes");
  return last;
}

/** The last write of each answer: where it ended. */
function endings(entries: Map<string, IndexedEntry[]>): IndexedEntry[] {
  return [...entries.values()].map(lastOf);
}

// Each answer is kept once and ends in a verdict, or rests where the person can act.
function checkSettles(history: History, entries: Map<string, IndexedEntry[]>): Violation[] {
  const end = history.steps.length;
  const violations: Violation[] = [];
  for (const interruptId of history.asked) {
    const keys = endings(entries).filter((item) => item.step.interruptId === interruptId);
    if (keys.length === 0)
      violations.push({
        promise: "settles",
        step: end,
        message: `the answer to ${interruptId} was never kept`,
      });
    if (keys.length > 1)
      violations.push({
        promise: "settles",
        step: end,
        message: `one answer to ${interruptId} made ${keys.length} outbox entries`,
      });
  }
  for (const { index, step } of endings(entries)) {
    const resting = RESTING_STATES.has(step.state) && !history.requireFinal;
    if (!FINAL_STATES.has(step.state) && !resting)
      violations.push({
        promise: "settles",
        step: index,
        message: `the answer to ${step.interruptId} was left "${step.state}" (attempts ${step.attempts}, last error ${step.lastError ?? "none"})`,
      });
  }
  return violations;
}

// A final verdict is the answer's only one: no write after it says anything else.
function checkOneVerdict(entries: Map<string, IndexedEntry[]>): Violation[] {
  const violations: Violation[] = [];
  for (const list of entries.values()) {
    const first = list.find((item) => FINAL_STATES.has(item.step.state));
    if (first === undefined) continue;
    const changed = list.find((item) => item.index > first.index && item.step.state !== first.step.state);
    if (changed !== undefined)
      violations.push({
        promise: "one-verdict",
        step: changed.index,
        message: `the answer to ${first.step.interruptId} was ${first.step.state}, then ${changed.step.state}`,
      });
  }
  return violations;
}

/** The executions of the tool call an entry guards (its interrupt, where no call is named). */
function executionsOf(history: History, entry: EntryStep): number {
  const call = entry.toolCallId ?? entry.interruptId;
  return history.server.executions.filter((execution) => execution.toolCallId === call).length;
}

function occurrenceOf(history: History, entry: EntryStep): string | undefined {
  return history.server.occurrences.find((item) => item.interruptId === entry.interruptId)?.state;
}

/** The keys that carried an answer to the server: its own, or the batch's sender's. */
function sentKeysOf(entry: EntryStep): string[] {
  return entry.sendsWith === undefined ? [entry.key] : [entry.key, entry.sendsWith];
}

// The tool runs only for an approval whose resume reached the server, and at most once.
function checkExecutions(history: History, entries: Map<string, IndexedEntry[]>): Violation[] {
  const end = history.steps.length;
  const violations: Violation[] = [];
  const received = new Set(history.server.receivedKeys);
  const answered = new Set<string>();
  for (const step of history.steps)
    if (step.kind === "request" && step.loop === "resume" && step.answered && step.key)
      answered.add(step.key);
  const runs = new Map<string, number>();
  for (const execution of history.server.executions)
    runs.set(execution.toolCallId, (runs.get(execution.toolCallId) ?? 0) + 1);
  for (const [call, count] of runs) {
    if (count > 1)
      violations.push({
        promise: "at-most-once",
        step: end,
        message: `tool call ${call} ran ${count} times`,
      });
    const entry = endings(entries).find(
      (item) => (item.step.toolCallId ?? item.step.interruptId) === call,
    )?.step;
    const claimed =
      entry !== undefined &&
      entry.decision === "approve" &&
      sentKeysOf(entry).some((key) => received.has(key) || answered.has(key)) &&
      !["REJECTED", "CANCELLED", "EXPIRED"].includes(occurrenceOf(history, entry) ?? "");
    if (!claimed)
      violations.push({
        promise: "claim-before-execution",
        step: end,
        message: `tool call ${call} ran without an approval that reached the server`,
      });
  }
  return violations;
}

// "Applied" only where the server shows the effect; "lost" only where it shows none.
function checkVerdictEvidence(history: History, entries: Map<string, IndexedEntry[]>): Violation[] {
  const violations: Violation[] = [];
  for (const list of entries.values()) {
    const verdict = list.find((item) => item.step.state === "applied" || item.step.state === "lost");
    if (verdict === undefined) continue;
    const { step, index } = verdict;
    const ran = executionsOf(history, step);
    const occurrence = occurrenceOf(history, step);
    const approved = step.decision === "approve";
    if (step.state === "applied") {
      const missing = approved
        ? ran !== 1
          ? `the tool ran ${ran} times`
          : history.server.contract && occurrence !== "RESOLVED"
            ? `the server's occurrence is ${occurrence ?? "absent"}`
            : undefined
        : ran !== 0
          ? "the tool ran"
          : history.server.contract && occurrence !== "REJECTED" && occurrence !== "CANCELLED"
            ? `the server's occurrence is ${occurrence ?? "absent"}`
            : undefined;
      if (missing !== undefined)
        violations.push({
          promise: "applied-with-evidence",
          step: index,
          message: `${approved ? "an approval" : "a rejection"} shown as applied, but ${missing}`,
        });
      continue;
    }
    // Lost: no response the client had (one finished before the verdict was written)
    // carried the call's result, and a contract server holds no recorded outcome, nor a
    // record that nothing ran.
    const call = step.toolCallId ?? step.interruptId;
    const seen = history.steps
      .slice(0, index)
      .some(
        (item) =>
          item.kind === "request" &&
          item.results?.includes(call) === true &&
          (item.finishedAt ?? Number.POSITIVE_INFINITY) <= index,
      );
    if (seen)
      violations.push({
        promise: "lost-without-evidence",
        step: index,
        message: `shown as lost, but a response before it carried the result of ${call}`,
      });
    const recorded =
      history.server.contract &&
      (occurrence === "RESOLVED" || occurrence === "REJECTED" || (occurrence === "PENDING" && ran === 0));
    if (recorded)
      violations.push({
        promise: "lost-without-evidence",
        step: index,
        message: `shown as lost, but the server recorded the outcome (occurrence ${occurrence}, tool ran ${ran} times)`,
      });
  }
  return violations;
}

const READS: ReadonlySet<string> = new Set(["hydrate", "reattach", "status"]);

// Every loop stops within its budget: resumes per key, and reads per resume and load.
function checkBudgets(history: History): Violation[] {
  const { budgets } = history;
  const violations: Violation[] = [];
  const resumes = new Map<string, number>();
  const stalled = new Set<string>();
  let sent = 0;
  let loads = 0;
  let reads = 0;
  let readsReported = false;
  history.steps.forEach((step, index) => {
    if (step.kind === "load") loads += 1;
    if (step.kind === "entry") {
      // Resuming a stall (online, visible, retry now, a start) grants a fresh budget.
      if (stalled.has(step.key) && step.state !== "stalled") resumes.set(step.key, 0);
      if (step.state === "stalled") stalled.add(step.key);
      else stalled.delete(step.key);
    }
    if (step.kind !== "request" || !step.answered) return;
    if (step.loop === "resume") {
      sent += 1;
      countResume(step, index);
    }
    if (READS.has(step.loop)) {
      reads += 1;
      const allowed = budgets.readsPerResume * sent + budgets.readsPerLoad * loads;
      if (reads > allowed && !readsReported) {
        readsReported = true;
        violations.push({
          promise: "budget",
          step: index,
          message: `${reads} reads for ${sent} resume(s) and ${loads} page load(s) (budget ${allowed})`,
        });
      }
    }
  });
  function countResume(step: RequestStep, index: number): void {
    const key = step.key ?? "";
    const count = (resumes.get(key) ?? 0) + 1;
    resumes.set(key, count);
    if (count === budgets.resumesPerKey + 1)
      violations.push({
        promise: "budget",
        step: index,
        message: `key ${key.slice(0, 8)} was sent ${count} times within one retry budget of ${budgets.resumesPerKey}`,
      });
  }
  return violations;
}

// Every open tab shows each answer's state, with the answer kept on screen.
function checkCards(history: History, entries: Map<string, IndexedEntry[]>): Violation[] {
  const end = history.steps.length;
  const violations: Violation[] = [];
  for (const card of history.cards) {
    const entry = endings(entries).find((item) => item.step.interruptId === card.interruptId)?.step;
    if (entry === undefined) continue;
    if (card.state !== entry.state)
      violations.push({
        promise: "shown",
        step: end,
        message: `tab ${card.tab} shows "${card.state ?? "no card"}" for a ${entry.state} answer`,
      });
    if (!card.decisionText)
      violations.push({
        promise: "shown",
        step: end,
        message: `tab ${card.tab} does not show the kept answer`,
      });
  }
  return violations;
}
