import { expect, test } from "vitest";
import {
  BackgroundCallState,
  type BackgroundRunRecord,
  type NewBackgroundRun,
} from "../src/store/background-records";
import type { ContractStore } from "../src/store/contract-store";

/**
 * The background-run part of the store contract, run inside each store's
 * suite: a run is written whole at the version it was read at, and found by
 * every token it handed out.
 */
export function backgroundStoreContract(fresh: () => Promise<ContractStore>): void {
  const newRun = (runId: string, token: string): NewBackgroundRun => ({
    runId,
    threadId: "thread-bg",
    status: "queued",
    step: 0,
    token,
    finalToken: null,
    tokens: { [token]: 1 },
    input: { threadId: "thread-bg", runId, messages: [], tools: [], context: [] } as never,
    calls: null,
    frames: [{ seq: 1, event: { type: "RUN_STARTED", threadId: "thread-bg", runId } as never }],
    poll: null,
    error: null,
  });

  test("a background run is created once and found by its runId and by its token", async () => {
    const store = await fresh();
    expect(await store.createBackground(newRun("bg-1", "tok-1"))).toBe(true);
    expect(await store.createBackground(newRun("bg-1", "tok-other"))).toBe(false);
    const byId = await store.background("bg-1");
    expect(byId).toMatchObject({ runId: "bg-1", token: "tok-1", version: 1, status: "queued" });
    expect((await store.backgroundByToken("tok-1"))?.runId).toBe("bg-1");
    expect(await store.backgroundByToken("tok-other")).toBeUndefined();
    expect(await store.background("bg-none")).toBeUndefined();
  });

  test("a stored tool result is written at the version read only: a second writer from the same read is refused", async () => {
    const store = await fresh();
    await store.createBackground(newRun("bg-2", "tok-a"));
    const read = (await store.background("bg-2")) as BackgroundRunRecord;
    const executed: BackgroundRunRecord = {
      ...read,
      calls: [
        {
          toolCallId: "c1",
          toolName: "deploy",
          args: { target: "prod" },
          state: BackgroundCallState.executed,
          result: { toolCallId: "c1", messageId: "m1", content: "deployed", args: { target: "prod" } },
        },
      ],
    };
    const racing = await Promise.all([
      store.updateBackground(executed),
      store.updateBackground({ ...read, status: "failed" }),
    ]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    const after = (await store.background("bg-2")) as BackgroundRunRecord;
    expect(after.version).toBe(2);
    expect(await store.updateBackground(read)).toBe(false);
    // Whichever won is stored whole; the loser changed nothing.
    if (racing[0]) expect(after.calls?.[0]?.result?.messageId).toBe("m1");
    else expect(after).toMatchObject({ status: "failed", calls: null });
  });

  test("a new token finds the run; the old one still does (stale or final), and the result survives", async () => {
    const store = await fresh();
    await store.createBackground(newRun("bg-3", "tok-0"));
    const read = (await store.background("bg-3")) as BackgroundRunRecord;
    expect(
      await store.updateBackground({
        ...read,
        step: 1,
        token: "tok-1",
        tokens: { ...read.tokens, "tok-1": 4 },
      }),
    ).toBe(true);
    const byOld = await store.backgroundByToken("tok-0");
    const byNew = await store.backgroundByToken("tok-1");
    expect(byOld?.version).toBe(2);
    expect(byNew).toMatchObject({
      runId: "bg-3",
      token: "tok-1",
      step: 1,
      tokens: { "tok-0": 1, "tok-1": 4 },
    });
  });

  test("a poll lease is renewed only for the poll holding it, and renewing does not bump the version", async () => {
    const store = await fresh();
    await store.createBackground(newRun("bg-4", "tok-4"));
    const read = (await store.background("bg-4")) as BackgroundRunRecord;
    const now = await store.now();
    await store.updateBackground({ ...read, poll: { pollId: "p1", leaseUntil: now } });
    await store.renewBackgroundPoll("bg-4", "p-other", 60_000);
    expect((await store.background("bg-4"))?.poll?.leaseUntil).toBe(now);
    await store.renewBackgroundPoll("bg-4", "p1", 60_000);
    const renewed = (await store.background("bg-4")) as BackgroundRunRecord;
    expect(renewed.poll?.pollId).toBe("p1");
    expect(renewed.poll?.leaseUntil).toBeGreaterThanOrEqual(now + 60_000);
    expect(renewed.version).toBe(2);
  });

  test("retention: ended runs past the window are deleted with their tokens; running ones are kept", async () => {
    const store = await fresh();
    await store.createBackground(newRun("bg-done", "tok-done"));
    await store.createBackground(newRun("bg-live", "tok-live"));
    const done = (await store.background("bg-done")) as BackgroundRunRecord;
    await store.updateBackground({ ...done, status: "completed", token: null, finalToken: "tok-done" });
    await store.prune({ idempotencyWindowMs: 0, eventLogRetentionMs: 0 });
    expect(await store.background("bg-done")).toBeUndefined();
    expect(await store.backgroundByToken("tok-done")).toBeUndefined();
    expect((await store.backgroundByToken("tok-live"))?.runId).toBe("bg-live");
  });
}
