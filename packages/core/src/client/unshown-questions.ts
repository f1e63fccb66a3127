import { EntryState, type OutboxEntry } from "../outbox/entry";
import { compareEntries } from "../outbox/outbox-store";
import { NOT_TAKEN_ERRORS } from "../outcome/not-taken-errors";
import type { PendingInterrupt } from "../thread/thread-state";

const NOT_TAKEN: ReadonlySet<string> = new Set(Object.values(NOT_TAKEN_ERRORS));

/**
 * The questions a server keeps open without showing them: answers of a batch it did not take.
 * Agent Framework 1.7.0, given an approval and a rejection at once, shows only the rejected one
 * yet refuses a resume without the approved one; 1.0.1 reads only a batch's first entry (release
 * check `batch-mixed`). Each stays answerable and rides the next batch; it counts while its newest
 * answer is such a kept or held one, beside the questions it was asked with or `answering`.
 */
export function unshownQuestions(
  entries: readonly OutboxEntry[],
  threadId: string,
  shown: readonly PendingInterrupt[],
  answering?: string,
): PendingInterrupt[] {
  const related = new Set(shown.map((interrupt) => interrupt.id));
  if (answering !== undefined) related.add(answering);
  const newest = new Map<string, OutboxEntry>();
  for (const entry of entries) {
    if (entry.threadId !== threadId || shown.some((interrupt) => interrupt.id === entry.interruptId))
      continue;
    const known = newest.get(entry.interruptId);
    if (known === undefined || compareEntries(known, entry) < 0) newest.set(entry.interruptId, entry);
  }
  const questions: PendingInterrupt[] = [];
  for (const entry of newest.values()) {
    const kept =
      entry.state === EntryState.needsUser &&
      entry.batch !== undefined &&
      NOT_TAKEN.has(entry.lastError?.message ?? "");
    if (!kept && !(entry.state === EntryState.held && entry.batch !== undefined)) continue;
    if (!entry.batch?.interruptIds.some((id) => related.has(id))) continue;
    questions.push({
      threadId,
      id: entry.interruptId,
      reason: "tool_call",
      ...(entry.toolCallId === undefined ? {} : { toolCallId: entry.toolCallId }),
      ...(entry.responseSchema === undefined
        ? {}
        : { responseSchema: entry.responseSchema as PendingInterrupt["responseSchema"] }),
    });
  }
  return questions;
}
