import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "vitest";
import { createFileStore } from "../src/store/file-store";
import { MemoryStore } from "../src/store/memory-store";
import { OccurrenceState } from "../src/store/records";
import { describeStoreContract } from "./store-contract";
import { tempFiles } from "./support/temp-file";

const tempFile = tempFiles("agui-file-store-", "store.json");

describeStoreContract("memory", async () => new MemoryStore());
describeStoreContract("file", async () => createFileStore({ path: tempFile() }));

test("the file store reads back what it wrote: a restarted process keeps its claims and logs", async () => {
  const path = tempFile();
  const first = createFileStore({ path });
  await first.openOccurrences([
    {
      threadId: "t",
      interruptId: "i1",
      toolCallId: null,
      toolName: null,
      args: {},
      interrupt: { id: "i1", reason: "approval" },
      expiresAt: Date.now() + 60_000,
    },
  ]);
  await first.beginRun("r1", "t", "A", 60_000);
  await first.append("r1", "A", { type: "RUN_STARTED", threadId: "t", runId: "r1" } as never);
  const second = createFileStore({ path });
  expect((await second.threadOccurrences("t")).map((o) => o.state)).toEqual([OccurrenceState.pending]);
  expect((await second.frames("r1", 0)).map((f) => f.seq)).toEqual([1]);
  expect(JSON.parse(readFileSync(path, "utf8")).format).toBe("agui-outbox-contract-store");
});

test("a file written before background runs were kept opens, and keeps background runs from then on", async () => {
  const path = tempFile();
  const older = { version: 1, occurrences: {}, idempotency: {}, outcomes: {}, runs: {}, frames: {} };
  writeFileSync(path, JSON.stringify({ format: "agui-outbox-contract-store", document: older }));
  const store = createFileStore({ path });
  const run = {
    runId: "bg-1",
    threadId: "t",
    status: "queued" as const,
    step: 0,
    token: "tok-1",
    finalToken: null,
    tokens: { "tok-1": 1 },
    input: { threadId: "t", runId: "bg-1", messages: [], tools: [], context: [] } as never,
    calls: null,
    frames: [],
    poll: null,
    error: null,
  };
  expect(await store.createBackground(run)).toBe(true);
  expect((await createFileStore({ path }).backgroundByToken("tok-1"))?.runId).toBe("bg-1");
});

test("a file that is not a contract store is refused with a clear error, not replaced", () => {
  const path = tempFile();
  writeFileSync(path, JSON.stringify({ hello: "world" }));
  expect(() => createFileStore({ path })).toThrow(/not an agui-outbox contract store file/);
  expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ hello: "world" });
});

test("a prune with nothing past its window writes nothing; one that expires a log writes once", async () => {
  let now = Date.parse("2026-03-01T09:00:00.000Z");
  let writes = 0;
  const store = new MemoryStore({ now: () => now, onChange: () => (writes += 1) });
  const windows = { idempotencyWindowMs: 60_000, eventLogRetentionMs: 10_000 };
  await store.beginRun("r1", "t", "A", 60_000);
  await store.append("r1", "A", { type: "RUN_FINISHED", threadId: "t", runId: "r1" } as never);
  writes = 0;
  await store.prune(windows);
  expect(writes).toBe(0);
  now += 10_000;
  await store.prune(windows);
  expect(writes).toBe(1);
  expect((await store.run("r1"))?.expired).toBe(true);
});
