// A client in Node the way the integration tests make one: IndexedDB from
// fake-indexeddb (one factory per benchmark), no Web Locks or BroadcastChannel so
// the client is the only tab, against a mock server over real HTTP.
// The globals (IDBRequest, IDBKeyRange…) that `idb` checks against, as in the node
// test project's setup; each benchmark still passes its own factory.
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import type {
  OutboxClient,
  OutboxClientOptions,
} from "../../packages/core/src/client/create-outbox-client.ts";
import type { OutboxEntry } from "../../packages/core/src/outbox/entry.ts";
import type { PendingInterrupt } from "../../packages/core/src/thread/thread-state.ts";
import { createIsolatedClient } from "../../packages/core/testing/isolated-client.ts";

export function nodeClient(
  agentUrl: string,
  indexedDB: IDBFactory,
  options: Partial<OutboxClientOptions> = {},
): OutboxClient {
  return createIsolatedClient({
    url: agentUrl,
    namespace: "bench",
    dbName: "bench",
    retry: { backoff: { baseMs: 20, capMs: 200 } },
    ...options,
    indexedDB,
  });
}

export { IDBFactory };

/** Starts the client and refuses to go on if storage fell back to memory. */
export async function startDurable(client: OutboxClient): Promise<void> {
  await client.start();
  const { durable, storageError } = client.outbox.getState();
  if (!durable) throw new Error(`storage is not durable: ${storageError?.message ?? "unknown reason"}`);
}

/** Resolves once `accept` holds for the namespace's entries (checked on every change). */
export function entriesReach(
  client: OutboxClient,
  accept: (entries: readonly OutboxEntry[]) => boolean,
  timeoutMs = 120_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!accept(client.outbox.getState().entries)) return;
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = client.outbox.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("the entries never reached the expected state"));
    }, timeoutMs);
    check();
  });
}

/**
 * Like {@link entriesReach}, but looks every `intervalMs` instead of on every change:
 * with a thousand entries a check on every publish would be the benchmark's own
 * quadratic cost, charged to the client under test.
 */
export async function pollEntries(
  client: OutboxClient,
  accept: (entries: readonly OutboxEntry[]) => boolean,
  intervalMs = 10,
  timeoutMs = 300_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!accept(client.outbox.getState().entries)) {
    if (Date.now() > deadline) throw new Error("the entries never reached the expected state");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Sends a deploy request on a thread and returns the interrupt it ends with. */
export async function askForDeployment(client: OutboxClient, threadId: string): Promise<PendingInterrupt> {
  const thread = client.thread(threadId);
  await thread.send("please deploy to prod");
  const interrupt = thread.store.getState().pendingInterrupts[0];
  if (!interrupt) throw new Error("the agent did not ask for approval");
  return interrupt;
}
