import { expect, test } from "vitest";
import { MemoryStore } from "../outbox/memory-store";
import { createBackgroundRunRecord } from "./background-run-record";
import { BACKGROUND_INDEX_META_ID, BackgroundRunStore, backgroundRunMetaId } from "./background-run-store";

const record = (runId: string, now: number) =>
  createBackgroundRunRecord({
    runId,
    threadId: "t1",
    continuationToken: `bgt_${runId}`,
    status: "queued",
    lastSeq: 1,
    now,
  });

test("insert writes the index and the record; loadAll returns them oldest first", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  await Promise.all([runs.insert(record("b", 2)), runs.insert(record("a", 1)), runs.insert(record("c", 3))]);
  expect(new Set((await store.getMeta("user-1", BACKGROUND_INDEX_META_ID)) as string[])).toEqual(
    new Set(["a", "b", "c"]),
  );
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["a", "b", "c"]);
});

test("ids without a valid record are skipped; other namespaces are not read", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  await runs.insert(record("good", 1));
  await store.putMeta("user-1", BACKGROUND_INDEX_META_ID, ["good", "missing", "broken"]);
  await store.putMeta("user-1", backgroundRunMetaId("broken"), { runId: "broken", lastSeq: "x" });
  await new BackgroundRunStore(store, "user-2").insert(record("theirs", 1));
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["good"]);
});

test("put overwrites one record; remove drops the record and its id", async () => {
  const store = new MemoryStore();
  const runs = new BackgroundRunStore(store, "user-1");
  await runs.insert(record("a", 1));
  await runs.put({ ...record("a", 1), continuationToken: "bgt_next", lastSeq: 4 });
  expect(await runs.loadAll()).toMatchObject([{ continuationToken: "bgt_next", lastSeq: 4 }]);
  await runs.remove("a");
  expect(await runs.loadAll()).toEqual([]);
  expect(await store.getMeta("user-1", BACKGROUND_INDEX_META_ID)).toEqual([]);
});

test("a store getter is read per operation, so the runner can exist before storage is open", async () => {
  let opened: MemoryStore | undefined;
  const runs = new BackgroundRunStore(() => {
    if (!opened) throw new Error("storage is not open yet");
    return opened;
  }, "user-1");
  opened = new MemoryStore();
  await runs.insert(record("a", 1));
  expect((await runs.loadAll()).map((run) => run.runId)).toEqual(["a"]);
});
