import { isOutboxError, type OutboxError } from "../../src/errors/outbox-error";
import { EntryState, type OutboxEntry } from "../../src/outbox/entry";

let sequence = 0;

/** A complete, valid entry; override what the test is about. */
export function makeTestEntry(overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  sequence += 1;
  return {
    key: `key-${sequence}`,
    namespace: "alice",
    threadId: "thread-1",
    interruptId: "interrupt-1",
    runId: `run-${sequence}`,
    body: `{"threadId":"thread-1","runId":"run-${sequence}"}`,
    decision: { kind: "approve", editedArgs: { target: "prod", replicas: 3 } },
    state: EntryState.queued,
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: `run-${sequence}`, lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: 1_000 + sequence,
    updatedAt: 1_000 + sequence,
    expiresAt: 1_000 + sequence + 23 * 3_600_000,
    ...overrides,
  };
}

export async function rejection(promise: Promise<unknown>): Promise<OutboxError> {
  try {
    await promise;
  } catch (error) {
    if (isOutboxError(error)) return error;
    throw new Error(`expected an OutboxError, got ${String(error)}`);
  }
  throw new Error("expected the promise to reject");
}

export const keysOf = (entries: readonly OutboxEntry[]) => entries.map((entry) => entry.key);
