import type { OutboxError } from "../errors/outbox-error";
import { IdbStore } from "./idb-store";
import { MemoryStore } from "./memory-store";
import type { OutboxStore } from "./outbox-store";
import { toOpenError } from "./storage-error";

export interface OpenOutboxStoreOptions {
  /**
   * The IndexedDB factory; `undefined` explicitly means "no IndexedDB".
   * @default globalThis.indexedDB, read when the function runs, never at import
   */
  readonly indexedDB?: IDBFactory | undefined;
  /** @default "agui-outbox" */
  readonly dbName?: string;
  readonly onClose?: (reason: OutboxError) => void;
  readonly onReopen?: () => void;
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
 * Opens the IndexedDB store, or falls back to a `MemoryStore`, reported (`durable: false`), never
 * silent: the app should say answers will not survive a reload. Never rejects.
 */
export async function openOutboxStore(options: OpenOutboxStoreOptions = {}): Promise<OpenedOutboxStore> {
  try {
    const store = await IdbStore.open(options);
    return { store, durable: true };
  } catch (error) {
    return { store: new MemoryStore(), durable: false, fallbackReason: toOpenError("open", error) };
  }
}
