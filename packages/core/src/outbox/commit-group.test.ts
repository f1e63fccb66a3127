import { IDBFactory } from "fake-indexeddb";
import { runCommitGroupCases } from "../../test/support/commit-group-cases";
import { IdbStore } from "./idb-store";

runCommitGroupCases("IdbStore (fake-indexeddb)", () =>
  IdbStore.open({ indexedDB: new IDBFactory(), dbName: "commit-group" }),
);
