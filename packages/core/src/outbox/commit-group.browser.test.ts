import { runCommitGroupCases } from "../../test/support/commit-group-cases";
import { IdbStore } from "./idb-store";

let opened = 0;
runCommitGroupCases("IdbStore (Chromium)", () => {
  opened += 1;
  return IdbStore.open({ dbName: `commit-group-${Date.now()}-${opened}` });
});
