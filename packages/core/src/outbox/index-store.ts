// The storage part of the outbox, for `packages/core/src/index.ts` to re-export.
// The contract suite lives in test/support: it imports Vitest.

export { PersistenceResult, requestPersistentStorage } from "../storage/request-persistence";
export { DEFAULT_OUTBOX_DB_NAME, IdbStore, type IdbStoreOptions, OUTBOX_DB_VERSION } from "./idb-store";
export { MemoryStore } from "./memory-store";
export { type OpenedOutboxStore, type OpenOutboxStoreOptions, openOutboxStore } from "./open-store";
export {
  type CommitResult,
  isSupersededByDefault,
  type OutboxStore,
  type PutIfAbsentOptions,
  type PutIfAbsentResult,
} from "./outbox-store";
export { FINAL_ENTRY_RETENTION_MS } from "./retention";
