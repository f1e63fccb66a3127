import { deleteDB } from "idb";
import { afterEach, describe } from "vitest";
import { runV1MigrationCase, runV2MigrationCase } from "../../test/support/idb-migration-cases";
import { runIdbQuotaCases } from "../../test/support/idb-quota-cases";
import { runOutboxStoreContract } from "../../test/support/store-contract";
import { IdbStore } from "./idb-store";
import type { OutboxStore } from "./outbox-store";

// Real Chromium IndexedDB: one database per test, deleted after it.
const created: string[] = [];
let counter = 0;

function uniqueName(prefix: string): string {
  counter += 1;
  const dbName = `${prefix}-${Date.now()}-${counter}`;
  created.push(dbName);
  return dbName;
}

async function deleteCreated(): Promise<void> {
  for (const name of created.splice(0)) await deleteDB(name);
}

function connect(store: OutboxStore): Promise<OutboxStore> {
  if (!(store instanceof IdbStore)) throw new Error("expected an IdbStore");
  return IdbStore.open({ dbName: store.dbName });
}

runOutboxStoreContract(
  "IdbStore (chromium)",
  () => IdbStore.open({ dbName: uniqueName("outbox-contract") }),
  { connect, cleanup: deleteCreated },
);

describe("quota", () => {
  // Runs after the cases' own afterEach has closed the store.
  afterEach(deleteCreated);
  runIdbQuotaCases("chromium", () => IdbStore.open({ dbName: uniqueName("outbox-quota") }));
});

describe("upgrade", () => {
  afterEach(deleteCreated);
  runV1MigrationCase(
    "chromium",
    () => indexedDB,
    () => uniqueName("outbox-v1"),
  );
  runV2MigrationCase(
    "chromium",
    () => indexedDB,
    () => uniqueName("outbox-v2"),
  );
});
