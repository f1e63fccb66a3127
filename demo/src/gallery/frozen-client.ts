/**
 * A client that never talks to a server and never changes: every store holds the
 * state it was given. The card gallery renders each card state from it, so its
 * pictures depend on nothing but the code (no network, no timers, no clock).
 */
import type {
  ConnectionState,
  OutboxClient,
  OutboxEntry,
  OutboxState,
  ReadonlyStore,
  ThreadHandle,
  ThreadState,
} from "@agui-outbox/core";

function fixed<T>(state: T): ReadonlyStore<T> {
  return { getState: () => state, getInitialState: () => state, subscribe: () => () => {} };
}

const nothing = async (): Promise<void> => {};

function refuse(): never {
  throw new Error("The card gallery is read-only.");
}

export interface FrozenClientInput {
  readonly entries: readonly OutboxEntry[];
  readonly threads: readonly ThreadState[];
  readonly connection: ConnectionState;
}

export function frozenClient(input: FrozenClientInput): OutboxClient {
  const outbox = fixed<OutboxState>({
    ready: true,
    durable: true,
    storageError: null,
    sealed: [],
    entries: input.entries,
  });
  const handles = new Map<string, ThreadHandle>(
    input.threads.map((state) => [
      state.threadId,
      { threadId: state.threadId, store: fixed(state), send: nothing, hydrate: nothing },
    ]),
  );
  return {
    url: "/agent",
    namespace: "gallery",
    outbox,
    connection: fixed(input.connection),
    start: nothing,
    thread(threadId) {
      const handle = handles.get(threadId);
      if (!handle) throw new Error(`The gallery has no thread ${threadId}.`);
      return handle;
    },
    answer: async () => refuse(),
    entryFor: (threadId, interruptId) =>
      input.entries.find((entry) => entry.threadId === threadId && entry.interruptId === interruptId),
    retryNow: nothing,
    discard: nothing,
    resendAsMessage: async () => false,
    resumeAfterAuth: nothing,
    clear: nothing,
    dispose: () => {},
  };
}
