import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { describe, expect, test } from "vitest";
import { type ContractStore, createFileStore, MemoryStore, type StoreLimits, scopeStore } from "../src/index";

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

const stores: [string, (limits: StoreLimits) => MemoryStore][] = [
  ["memory", (limits) => new MemoryStore({ limits })],
  [
    "file",
    (limits) => createFileStore({ path: join(mkdtempSync(join(tmpdir(), "bounds-")), "s.json"), limits }),
  ],
];

describe.each(stores)("caps on run logs (%s store)", (_name, open) => {
  test("past an identity's bytes cap its oldest finished logs go (410), never another identity's", async () => {
    const store = open({ maxBytesPerIdentity: 20_000, maxBytes: 1_000_000 });
    const alice = scopeStore(store, "alice");
    const bob = scopeStore(store, "bob");
    await finishedRun(bob, "b1", 5);
    for (let index = 0; index < 10; index += 1) {
      await finishedRun(alice, `a${index}`, 5);
      expect(store.logBytes).toBeLessThanOrEqual(20_000 + 6_000);
    }
    expect((await alice.run("a0"))?.expired).toBe(true);
    expect(await alice.frames("a0", 0)).toEqual([]);
    expect((await alice.run("a9"))?.expired).toBe(false);
    expect(await bob.frames("b1", 0)).toHaveLength(3);
  });

  test("a running run and the claim it holds are never evicted, however far over the cap", async () => {
    const store = open({ maxBytes: 10_000 });
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
    expect(await store.frames("live", 0)).toHaveLength(5);
    expect((await store.threadOccurrences("t-live"))[0]?.claim?.runId).toBe("live");
    expect((await store.run("done0"))?.expired).toBe(true);
  });

  test("past a count cap the oldest finished runs are gone", async () => {
    const store = open({ maxRunsPerIdentity: 3 });
    const alice = scopeStore(store, "alice");
    for (let index = 0; index < 5; index += 1) await finishedRun(alice, `r${index}`, 1);
    expect(await alice.run("r0")).toBeUndefined();
    expect(await alice.run("r1")).toBeUndefined();
    expect((await alice.run("r4"))?.lastSeq).toBe(3);
  });
});
