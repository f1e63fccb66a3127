import type { StoreApi } from "zustand/vanilla";
import { MemoryStore } from "../outbox/memory-store";
import { openOutboxStore } from "../outbox/open-store";
import type { OutboxStore } from "../outbox/outbox-store";
import type { OutboxClientOptions } from "./client-types";
import type { OutboxDeps } from "./deps";
import type { OutboxState } from "./outbox-state";

export interface OpenedClientStore {
  readonly store: OutboxStore;
  /** A store the app passed in is the app's to close; one this client opened is closed by `dispose`. */
  readonly owned: boolean;
}

/** Opens the store the options ask for and reports its durability on the outbox state. */
export async function openClientStore(
  options: OutboxClientOptions,
  deps: OutboxDeps,
  outboxStore: StoreApi<OutboxState>,
): Promise<OpenedClientStore> {
  const choice = options.storage ?? "indexeddb";
  if (choice === "memory") {
    outboxStore.setState({ durable: false });
    return { store: new MemoryStore(), owned: false };
  }
  if (typeof choice === "object") {
    outboxStore.setState({ durable: true });
    return { store: choice, owned: false };
  }
  const opened = await openOutboxStore({
    indexedDB: deps.indexedDB(),
    ...(options.dbName ? { dbName: options.dbName } : {}),
    onClose: (reason) => outboxStore.setState({ storageError: reason }),
  });
  outboxStore.setState(
    opened.durable
      ? { durable: true, storageError: null }
      : { durable: false, storageError: opened.fallbackReason },
  );
  return { store: opened.store, owned: true };
}
