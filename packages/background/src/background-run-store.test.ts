import { MemoryStore } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { createBackgroundRunRecord } from "./background-run-record";
import { BackgroundRunStore } from "./background-run-store";

const record = (runId: string, now: number) =>
  createBackgroundRunRecord({
    runId,
    threadId: "t1",
    continuationToken: `bgt_${runId}`,
    status: "queued",
    lastSeq: 1,
    now,
  });

test("runs inserted at once are all kept; loadAll returns them oldest first", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  // Two tabs sharing one store: each insert is a single write of its own row.
  const otherTab = new BackgroundRunStore(store, "user-1");
  await Promise.all([runs.put(record("b", 2)), otherTab.put(record("a", 1)), runs.put(record("c", 3))]);
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["a", "b", "c"]);
});

test("rows that do not parse are skipped; other namespaces are not read", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  await runs.put(record("good", 1));
  await store.putBackgroundRun("user-1", "broken", { runId: "broken", lastSeq: "x" });
  await new BackgroundRunStore(store, "user-2").put(record("theirs", 1));
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["good"]);
});

test("put overwrites one record; remove drops it", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  await runs.put(record("a", 1));
  await runs.put({ ...record("a", 1), continuationToken: "bgt_next", lastSeq: 4 });
  expect(await runs.loadAll()).toMatchObject([{ continuationToken: "bgt_next", lastSeq: 4 }]);
  await runs.remove("a");
  expect(await runs.loadAll()).toEqual([]);
  expect(await store.listBackgroundRuns("user-1")).toEqual([]);
});

test("a store getter is read per operation, so the runner can exist before storage is open", async () => {
  let opened: MemoryStore | undefined;
  const runs = new BackgroundRunStore(() => {
    if (!opened) throw new Error("storage is not open yet");
    return opened;
  }, "user-1");
  opened = new MemoryStore();
  await runs.put(record("a", 1));
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["a"]);
});
