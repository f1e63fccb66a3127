import { randomUUID } from "node:crypto";
import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ContractStore, createFileStore, MemoryStore, type StoreLimits, scopeStore } from "../src/index";
import { PostgresStore } from "../src/store/postgres";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";
import { tempFiles } from "./support/temp-file";

const LEASE = 60_000;
const KB = "x".repeat(1000);

/** One finished run of about `kb` KB in the log, as an identity's requests write it. */
async function finishedRun(store: ContractStore, runId: string, kb: number): Promise<void> {
  await store.beginRun(runId, `t-${runId}`, "i1", LEASE);
  await store.append(runId, "i1", { type: "RUN_STARTED", threadId: `t-${runId}`, runId } as AgUiEvent);
  const delta = KB.repeat(kb);
  await store.append(runId, "i1", { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta } as AgUiEvent);
  await store.append(runId, "i1", { type: "RUN_FINISHED", threadId: `t-${runId}`, runId } as AgUiEvent);
}

/** Memory and file evict as they write; Postgres at each sweep's prune. */
const settle = (store: ContractStore) => store.prune({ idempotencyWindowMs: 1e9, eventLogRetentionMs: 1e9 });

const tempFile = tempFiles("bounds-", "s.json");
const stores: [string, (limits: StoreLimits) => Promise<ContractStore>][] = [
  ["memory", async (limits) => new MemoryStore({ limits })],
  ["file", async (limits) => createFileStore({ path: tempFile(), limits })],
];

let postgres: TestPostgres | undefined;
const opened: ContractStore[] = [];
if (postgresUnavailable() === undefined) {
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    postgres?.stop();
  });
  stores.push([
    "postgres",
    async (limits) => {
      const schema = `b_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
      const store = await PostgresStore.open({ connectionString: postgres?.url ?? "", schema, limits });
      opened.push(store);
      return store;
    },
  ]);
}

describe.each(stores)("caps on run logs (%s store)", (_name, open) => {
  test("past an identity's bytes cap its oldest finished logs go (410), never another identity's", async () => {
    const store = await open({ maxBytesPerIdentity: 20_000, maxBytes: 1_000_000 });
    const alice = scopeStore(store, "alice");
    const bob = scopeStore(store, "bob");
    await finishedRun(bob, "b1", 5);
    for (let index = 0; index < 10; index += 1) {
      await finishedRun(alice, `a${index}`, 5);
      if (store instanceof MemoryStore) expect(store.logBytes).toBeLessThanOrEqual(20_000 + 6_000);
    }
    await settle(store);
    expect((await alice.run("a0"))?.expired).toBe(true);
    expect(await alice.frames("a0", 0)).toEqual([]);
    expect((await alice.run("a9"))?.expired).toBe(false);
    expect(await bob.frames("b1", 0)).toHaveLength(3);
  });

  test("a running run and the claim it holds are never evicted, however far over the cap", async () => {
    const store = await open({ maxBytes: 10_000 });
    await store.openOccurrences([
      {
        threadId: "t-live",
        interruptId: "i",
        toolCallId: null,
        toolName: null,
        args: {},
        interrupt: { id: "i", reason: "tool_call" },
        expiresAt: Date.now() + LEASE,
      } as never,
    ]);
    const [pending] = await store.threadOccurrences("t-live");
    await store.beginRun("live", "t-live", "i1", LEASE);
    const claim = {
      ref: { threadId: "t-live", interruptId: "i" },
      version: pending?.version ?? 1,
      decision: { status: "resolved" as const },
    };
    expect(await store.claim({ runId: "live", key: "k", leaseMs: LEASE, claims: [claim] })).toBe(true);
    for (let index = 0; index < 5; index += 1) {
      await store.append("live", "i1", {
        type: "TEXT_MESSAGE_CONTENT",
        messageId: "m",
        delta: KB.repeat(5),
      } as AgUiEvent);
    }
    for (let index = 0; index < 5; index += 1) await finishedRun(store, `done${index}`, 5);
    await settle(store);
    expect(await store.frames("live", 0)).toHaveLength(5);
    expect((await store.threadOccurrences("t-live"))[0]?.claim?.runId).toBe("live");
    expect((await store.run("done0"))?.expired).toBe(true);
  });

  test("past a count cap the oldest finished runs are gone", async () => {
    const store = await open({ maxRunsPerIdentity: 3 });
    const alice = scopeStore(store, "alice");
    for (let index = 0; index < 5; index += 1) await finishedRun(alice, `r${index}`, 1);
    await settle(store);
    expect(await alice.run("r0")).toBeUndefined();
    expect(await alice.run("r1")).toBeUndefined();
    expect((await alice.run("r4"))?.lastSeq).toBe(3);
  });
});
