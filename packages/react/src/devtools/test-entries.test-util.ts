import type { ConnectionState, OutboxEntry, OutboxState } from "@agui-outbox/core";

/** An entry as the outbox holds it, with an edited answer whose words a report must not carry. */
export function entry(extra: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    key: "key-1",
    namespace: "demo:alice",
    threadId: "thread-1",
    interruptId: "int-1",
    runId: "run-1",
    body: '{"resume":{"interruptId":"int-1","payload":{"approved":true,"editedArgs":{"target":"SECRET-TARGET"}}}}',
    decision: { kind: "approve", editedArgs: { target: "SECRET-TARGET" }, reason: "SECRET-REASON" },
    question: {
      message: "Deploy to SECRET-QUESTION?",
      toolName: "deploy",
      args: { target: "SECRET-QUESTION" },
    } as unknown as NonNullable<OutboxEntry["question"]>,
    state: "queued",
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: "run-1", lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: 1_000,
    updatedAt: 1_000,
    expiresAt: 90_000_000,
    ...extra,
  };
}

export function outboxState(entries: readonly OutboxEntry[]): OutboxState {
  return { ready: true, durable: true, storageError: null, entries, sealed: [] };
}

export const connected: ConnectionState = {
  link: { name: "connected", serverKind: "contract" },
  serverKind: "contract",
  serverKindFrom: "capabilities",
  online: true,
  leader: true,
};
