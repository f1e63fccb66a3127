import { EntryState, isFinalState, type OutboxEntry } from "./entry";

/** How far the answers to one run's questions are: "1 of 2 answered — sent when all are answered". */
export interface BatchProgress {
  readonly answered: number;
  readonly total: number;
}

/**
 * The progress of `entry`'s batch among `entries`, or undefined for a lone question. Counts answers
 * not superseded; for an answer on its way only those on their way (a settled one is an earlier batch).
 */
export function batchProgress(
  entries: readonly OutboxEntry[],
  entry: OutboxEntry,
): BatchProgress | undefined {
  const batch = entry.batch;
  if (!batch) return undefined;
  const ids = new Set(batch.interruptIds);
  const answered = new Set<string>();
  for (const candidate of entries) {
    if (candidate.threadId !== entry.threadId || !ids.has(candidate.interruptId)) continue;
    if (candidate.state === EntryState.elsewhere && candidate.key !== entry.key) continue;
    if (!isFinalState(entry.state) && isFinalState(candidate.state)) continue;
    answered.add(candidate.interruptId);
  }
  return { answered: answered.size, total: ids.size };
}
