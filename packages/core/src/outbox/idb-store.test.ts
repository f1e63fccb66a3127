import { IDBFactory } from "fake-indexeddb";
import { runV1MigrationCase, runV2MigrationCase } from "../../test/support/idb-migration-cases";
import { runIdbQuotaCases } from "../../test/support/idb-quota-cases";
import { runOutboxStoreContract } from "../../test/support/store-contract";
import { IdbStore } from "./idb-store";
import type { OutboxStore } from "./outbox-store";

// A fresh factory per test: every test starts from an empty origin, and a
// second connection (reload, second tab) opens the same database through it.
let factory = new IDBFactory();

function connect(store: OutboxStore): Promise<OutboxStore> {
  if (!(store instanceof IdbStore)) throw new Error("expected an IdbStore");
  return IdbStore.open({ indexedDB: factory, dbName: store.dbName });
}

runOutboxStoreContract(
  "IdbStore (fake-indexeddb)",
  async () => {
    factory = new IDBFactory();
    return IdbStore.open({ indexedDB: factory, dbName: "outbox-contract" });
  },
  { connect },
);

runIdbQuotaCases("fake-indexeddb", () =>
  IdbStore.open({ indexedDB: new IDBFactory(), dbName: "outbox-quota" }),
);

runV1MigrationCase(
  "fake-indexeddb",
  () => new IDBFactory(),
  () => "outbox-v1",
);

runV2MigrationCase(
  "fake-indexeddb",
  () => new IDBFactory(),
  () => "outbox-v2",
);
