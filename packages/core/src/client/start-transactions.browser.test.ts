import { deleteDB } from "idb";
import { afterEach } from "vitest";
import { runStartTransactionCases } from "../../test/support/start-transactions-cases";

// Chromium's own IndexedDB: one database per test, deleted after it.
const created: string[] = [];
let counter = 0;

afterEach(async () => {
  for (const name of created.splice(0)) await deleteDB(name);
});

runStartTransactionCases("chromium", () => {
  counter += 1;
  const dbName = `start-transactions-${Date.now()}-${counter}`;
  created.push(dbName);
  return dbName;
});
