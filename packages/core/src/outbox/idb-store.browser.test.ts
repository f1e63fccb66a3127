import { deleteDB } from "idb";
import { IdbStore } from "./idb-store";
import type { OutboxStore } from "./outbox-store";
import { runOutboxStoreContract } from "./store-contract";

// Real Chromium IndexedDB: one database per test, deleted after it.
const created: string[] = [];
let counter = 0;

function connect(store: OutboxStore): Promise<OutboxStore> {
  if (!(store instanceof IdbStore)) throw new Error("expected an IdbStore");
  return IdbStore.open({ dbName: store.dbName });
}

runOutboxStoreContract(
  "IdbStore (chromium)",
  async () => {
    counter += 1;
    const dbName = `outbox-contract-${Date.now()}-${counter}`;
    created.push(dbName);
    return IdbStore.open({ dbName });
  },
  {
    connect,
    cleanup: async () => {
      for (const name of created.splice(0)) await deleteDB(name);
    },
  },
);
