import type { OutboxEntry } from "../outbox/entry";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import { toolEvidenceIn } from "../outcome/tool-evidence";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { EntryBook } from "./entry-book";

/** The ways a stream ends before its terminal event. */
export const CUT_TYPES: ReadonlySet<DeliverySignal["type"]> = new Set([
  "network-error",
  "stream-ended",
  "stream-stalled",
  "invalid-stream",
]);

/*
 * What the thread, as this tab holds it (streamed or hydrated), shows about an
 * entry's answer: its tool result, whether its question is still asked. Read,
 * never requested: the transport brings the thread, these read it.
 */

/** What the thread, as last hydrated, shows about `entry`'s interrupt. */
export function hydratedSignal(
  threads: ThreadRegistry,
  entry: OutboxEntry,
  kind: ServerKind,
): DeliverySignal {
  const thread = threads.get(entry.threadId);
  return {
    type: "hydrated",
    toolEvidence: toolEvidenceIn(thread.messages, entry.toolCallId ?? entry.interruptId, kind),
    interruptStillOpen: thread.pendingInterrupts.some((interrupt) => interrupt.id === entry.interruptId),
  };
}

/**
 * A finished run on a server without the contract proves nothing by itself: the
 * thread it streamed must show `entry`'s own tool result (outcome/tool-evidence.ts),
 * and, in a batch, whether the server took the other answers but not this one. A
 * stream cut before its end is marked when it already carried the result of every
 * answer of the request: each ran, only the end of the run was not seen.
 */
export function withToolEvidence(
  threads: ThreadRegistry,
  book: EntryBook,
  entry: OutboxEntry,
  signal: DeliverySignal,
): DeliverySignal {
  const thread = threads.get(entry.threadId);
  const evidenceOf = (member: OutboxEntry) =>
    toolEvidenceIn(thread.messages, member.toolCallId ?? member.interruptId, "degraded");
  if (CUT_TYPES.has(signal.type)) {
    // Every answer of the request ran (its own result arrived): the cut hides only the end.
    const seen = batchMembers(book, entry).every((member) => evidenceOf(member) === "ran");
    return seen ? ({ ...signal, toolResultsSeen: true } as DeliverySignal) : signal;
  }
  if (signal.type !== "run-finished") return signal;
  const toolEvidence = evidenceOf(entry);
  const others = batchMembers(book, entry).filter((member) => member.key !== entry.key);
  const skippedInBatch = toolEvidence === "none" && others.some((member) => evidenceOf(member) !== "none");
  const callId = entry.toolCallId ?? entry.interruptId;
  const askedAgain = thread.pendingInterrupts.some(
    (interrupt) => interrupt.id === entry.interruptId || interrupt.toolCallId === callId,
  );
  return {
    ...signal,
    toolEvidence,
    ...(skippedInBatch ? { skippedInBatch } : {}),
    ...(askedAgain ? { askedAgain } : {}),
  };
}

/** The answers one request carries with `entry`'s (its batch), `entry` among them. */
function batchMembers(book: EntryBook, entry: OutboxEntry): OutboxEntry[] {
  const batch = entry.batch;
  if (!batch || batch.interruptIds.length < 2) return [entry];
  const sender = batch.sendsWith ?? entry.key;
  return [...book.values()].filter(
    (candidate) =>
      candidate.threadId === entry.threadId &&
      (candidate.key === sender || candidate.batch?.sendsWith === sender),
  );
}
