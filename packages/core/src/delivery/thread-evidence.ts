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

/* What the thread as this tab holds it shows about an entry's answer; read, never requested. */

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
 * A finished run without the contract proves nothing alone: the streamed thread must show the
 * entry's own tool result (and, in a batch, whether the others were taken instead). A cut stream
 * that already carried every answer's result counts as finished.
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
