import type { OutboxError } from "../errors/outbox-error";
import { IdbStore } from "./idb-store";
import { MemoryStore } from "./memory-store";
import type { OutboxStore } from "./outbox-store";
import { toOpenError } from "./storage-error";

export interface OpenOutboxStoreOptions {
  /**
   * The IndexedDB factory. Passing `undefined` explicitly means "no IndexedDB"
   * (server-side rendering, tests of the fallback).
   * @default globalThis.indexedDB, read when the function runs, never at import
   */
  readonly indexedDB?: IDBFactory | undefined;
  /**
   * The database name.
   * @default "agui-outbox"
   */
  readonly dbName?: string;
  /** Forwarded to the IndexedDB store: the connection closed under it (see `IdbStoreOptions.onClose`). */
  readonly onClose?: (reason: OutboxError) => void;
  /** Forwarded to the IndexedDB store: it reopened after a close (see `IdbStoreOptions.onReopen`). */
  readonly onReopen?: () => void;
  /** Forwarded to the IndexedDB store: it cannot reopen (see `IdbStoreOptions.onUnavailable`). */
  readonly onUnavailable?: (reason: OutboxError) => void;
}

export type OpenedOutboxStore =
  | { readonly store: OutboxStore; readonly durable: true }
  | {
      readonly store: OutboxStore;
      readonly durable: false;
      /** Why IndexedDB could not be used; always of kind `storage_unavailable`. */
      readonly fallbackReason: OutboxError;
    };

/**
 * Opens the durable IndexedDB store, or falls back to a `MemoryStore` when
 * IndexedDB is missing or refuses to open. The fallback is reported
 * (`durable: false` and the reason), never silent: the app should tell the
 * person that answers will not survive a reload. Never rejects.
 */
export async function openOutboxStore(options: OpenOutboxStoreOptions = {}): Promise<OpenedOutboxStore> {
  try {
    const store = await IdbStore.open(options);
    return { store, durable: true };
  } catch (error) {
    return { store: new MemoryStore(), durable: false, fallbackReason: toOpenError("open", error) };
  }
}
