import type { OutboxClient, OutboxClientOptions } from "../src/client/client-types";
import { createOutboxClient } from "../src/client/create-outbox-client";

export interface IsolatedClientOptions extends OutboxClientOptions {
  /** The IndexedDB the client stores in (fake-indexeddb's `IDBFactory` in Node). */
  readonly indexedDB: IDBFactory;
}

/**
 * A client that is a browser tab of its own, for tests and benchmarks in Node:
 * storage in the given IndexedDB (two clients on one factory are a page and its
 * reload), no Web Locks and no BroadcastChannel. Node has a global
 * BroadcastChannel, which would otherwise make every client of the process a tab
 * of one browser. `deps` still override any of these.
 */
export function createIsolatedClient(options: IsolatedClientOptions): OutboxClient {
  const { indexedDB, ...clientOptions } = options;
  return createOutboxClient({
    ...clientOptions,
    deps: {
      indexedDB: () => indexedDB,
      locks: () => undefined,
      openChannel: () => undefined,
      ...options.deps,
    },
  });
}
