/** The outcome of asking the browser to keep this origin's storage under pressure. */
export const PersistenceResult = {
  /** The browser will not evict the outbox database to free space. */
  granted: "granted",
  /** Storage stays "best effort": the browser may evict it (the outbox still works until then). */
  denied: "denied",
  /** No StorageManager here (server-side rendering, old browsers, insecure contexts). */
  unsupported: "unsupported",
} as const;
export type PersistenceResult = (typeof PersistenceResult)[keyof typeof PersistenceResult];

type PersistCapable = Pick<StorageManager, "persist"> & Partial<Pick<StorageManager, "persisted">>;

/**
 * Asks the browser to keep this origin's storage, so a pending answer is not evicted. Never
 * throws; the outbox works either way.
 * @param storageManager The StorageManager to ask.
 *   @default globalThis.navigator?.storage, read when called, never at import
 */
export async function requestPersistentStorage(
  storageManager: PersistCapable | undefined = defaultStorageManager(),
): Promise<PersistenceResult> {
  if (storageManager === undefined || typeof storageManager.persist !== "function") {
    return PersistenceResult.unsupported;
  }
  try {
    // Already persistent: do not ask again (some browsers prompt on every call).
    if (typeof storageManager.persisted === "function" && (await storageManager.persisted())) {
      return PersistenceResult.granted;
    }
    return (await storageManager.persist()) ? PersistenceResult.granted : PersistenceResult.denied;
  } catch {
    // A rejected request (for example in a sandboxed frame) means storage stays best effort.
    return PersistenceResult.denied;
  }
}

function defaultStorageManager(): PersistCapable | undefined {
  const nav = (globalThis as { navigator?: { storage?: PersistCapable } }).navigator;
  return nav?.storage;
}
