import { IDBFactory } from "fake-indexeddb";
import { runOutboxStoreContract } from "../../test/support/store-contract";
import { FallbackStore } from "./fallback-store";
import { IdbStore } from "./idb-store";

// Before the fall back every call goes to IndexedDB; after it, to memory: both
// keep the contract (the start read included).
runOutboxStoreContract("FallbackStore over IdbStore (fake-indexeddb)", async () => {
  const durable = await IdbStore.open({ indexedDB: new IDBFactory(), dbName: "outbox-fallback" });
  return new FallbackStore(durable, "alice");
});

runOutboxStoreContract("FallbackStore after falling back to memory", async () => {
  const durable = await IdbStore.open({ indexedDB: new IDBFactory(), dbName: "outbox-fallback" });
  const store = new FallbackStore(durable, "alice");
  await store.fallBack({ entries: [], backgroundRuns: [] });
  return store;
});
