import { type AgUiEvent, MetadataKey } from "@agui-outbox/core/protocol";
import { afterEach, describe, expect, test } from "vitest";
import type { ContractStore } from "../src/store/contract-store";
import { type NewOccurrence, OccurrenceState, type StoredToolResult } from "../src/store/records";
import { backgroundStoreContract } from "./store-background-contract";
import { batchStoreContract } from "./store-batch-contract";

/**
 * The one suite every {@link ContractStore} passes: memory, file and Postgres.
 * Leases of 0 ms have lapsed as soon as they are written, so no test waits on a clock.
 */
export function describeStoreContract(name: string, open: () => Promise<ContractStore>): void {
  describe(`${name} store contract`, () => {
    const opened: ContractStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };

    const thread = "thread-1";
    const occurrence = (interruptId: string, expiresAt = Date.now() + 3_600_000): NewOccurrence => ({
      threadId: thread,
      interruptId,
      toolCallId: `call-${interruptId}`,
      toolName: "deploy",
      args: { target: "prod" },
      interrupt: { id: interruptId, reason: "approval", toolCallId: `call-${interruptId}` },
      expiresAt,
    });
    const ref = (interruptId: string) => ({ threadId: thread, interruptId });
    const approve = { status: "resolved" as const, payload: { approved: true } };
    const result = (interruptId: string): StoredToolResult => ({
      toolCallId: `call-${interruptId}`,
      messageId: `m-${interruptId}`,
      content: "deployed",
      args: { target: "prod" },
    });
    const event = (type: string, extra: Record<string, unknown> = {}) =>
      ({ type, threadId: thread, runId: "r", ...extra }) as AgUiEvent;

    async function claimOne(store: ContractStore, runId: string, leaseMs = 60_000, ids = ["i1"]) {
      const current = await store.threadOccurrences(thread);
      return store.claim({
        runId,
        key: `key-${runId}`,
        leaseMs,
        claims: ids.map((id) => ({
          ref: ref(id),
          version: current.find((o) => o.interruptId === id)?.version ?? -1,
          decision: approve,
        })),
      });
    }

    test("openRunsOf lists the runs an owner began that have not ended, and no one else's", async () => {
      const store = await fresh();
      await store.beginRun("r-open", thread, "owner-a", 60_000);
      await store.beginRun("r-other", thread, "owner-b", 60_000);
      await store.beginRun("r-ended", thread, "owner-a", 60_000);
      await store.append("r-ended", "owner-a", event("RUN_FINISHED"));
      expect(await store.openRunsOf("owner-a")).toEqual(["r-open"]);
      expect(await store.openRunsOf("owner-c")).toEqual([]);
    });

    test("an idempotency key is recorded once; a second reservation gets the first record back", async () => {
      const store = await fresh();
      const first = { key: "k", bodyHash: "a", runId: "r1", threadId: thread };
      expect(await store.reserveKey(first)).toMatchObject({
        key: "k",
        bodyHash: "a",
        runId: "r1",
        created: true,
      });
      const again = await store.reserveKey({ ...first, bodyHash: "b", runId: "r2" });
      expect(again).toMatchObject({ bodyHash: "a", runId: "r1", created: false });
      const racing = await Promise.all(
        [1, 2, 3].map((n) => store.reserveKey({ ...first, key: "k2", runId: `r${n}` })),
      );
      expect(racing.filter((reserved) => reserved.created)).toHaveLength(1);
      expect(new Set(racing.map((reserved) => reserved.runId)).size).toBe(1);
    });

    test("occurrences open PENDING once, in the order the run raised them", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1"), occurrence("i2")]);
      await store.openOccurrences([occurrence("i1")]);
      const found = await store.threadOccurrences(thread);
      expect(found.map((o) => [o.interruptId, o.state, o.claim, o.result])).toEqual([
        ["i1", OccurrenceState.pending, null, null],
        ["i2", OccurrenceState.pending, null, null],
      ]);
      expect(await store.threadOccurrences("another-thread")).toEqual([]);
    });

    test("a batch is claimed whole or not at all: one stale version fails every claim in it", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1"), occurrence("i2")]);
      const [one, two] = await store.threadOccurrences(thread);
      const claimed = await store.claim({
        runId: "r1",
        key: "k1",
        leaseMs: 60_000,
        claims: [
          { ref: ref("i1"), version: one?.version ?? 0, decision: approve },
          { ref: ref("i2"), version: (two?.version ?? 0) + 5, decision: approve },
        ],
      });
      expect(claimed).toBe(false);
      const after = await store.threadOccurrences(thread);
      expect(after.map((o) => [o.state, o.claim])).toEqual([
        [OccurrenceState.pending, null],
        [OccurrenceState.pending, null],
      ]);
    });

    test("two claims decided on the same version race: exactly one wins", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      const [current] = await store.threadOccurrences(thread);
      const attempt = (runId: string) =>
        store.claim({
          runId,
          key: `key-${runId}`,
          leaseMs: 60_000,
          claims: [{ ref: ref("i1"), version: current?.version ?? 0, decision: approve }],
        });
      const outcomes = await Promise.all([attempt("r1"), attempt("r2"), attempt("r3")]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const [after] = await store.threadOccurrences(thread);
      expect(after?.state).toBe(OccurrenceState.claimed);
      expect(["r1", "r2", "r3"][outcomes.indexOf(true)]).toBe(after?.claim?.runId);
      expect(after?.decision).toEqual(approve);
    });

    test("only the run holding the claim undoes its start, and a rollback then leaves it pending", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      expect(await claimOne(store, "r1")).toBe(true);
      expect(await store.undoExecution(ref("i1"), "r1")).toBe(false);
      expect(await store.beginExecution(ref("i1"), "r1", 60_000)).toBe(true);
      expect(await store.undoExecution(ref("i1"), "r2")).toBe(false);
      expect(await store.undoExecution(ref("i1"), "r1")).toBe(true);
      const [after] = await store.threadOccurrences(thread);
      expect(after?.state).toBe(OccurrenceState.claimed);
      expect(after?.claim?.runId).toBe("r1");
      expect(await store.beginExecution(ref("i1"), "r1", 60_000)).toBe(true);
    });

    test("only the run holding the claim starts the tool, and only once; only it stores the result", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      expect(await claimOne(store, "r1")).toBe(true);
      expect(await store.beginExecution(ref("i1"), "r2", 60_000)).toBe(false);
      expect(await store.beginExecution(ref("i1"), "r1", 60_000)).toBe(true);
      expect(await store.beginExecution(ref("i1"), "r1", 60_000)).toBe(false);
      expect(await store.storeResult(ref("i1"), "r2", result("i1"), 60_000)).toBe(false);
      expect(await store.storeResult(ref("i1"), "r1", result("i1"), 60_000)).toBe(true);
      const [after] = await store.threadOccurrences(thread);
      expect(after?.state).toBe(OccurrenceState.executed);
      expect(after?.result).toEqual(result("i1"));
    });

    test("events get gap-free seqs and their cursor; the terminal event ends the attempt", async () => {
      const store = await fresh();
      expect(await store.beginRun("r1", thread, "A", 60_000)).toMatchObject({ lastSeq: 0, terminal: null });
      expect(await store.beginRun("r1", thread, "B", 60_000)).toBeUndefined();
      const started = await store.append("r1", "A", event("RUN_STARTED"));
      expect(started?.seq).toBe(1);
      expect(started?.event.metadata?.[MetadataKey.stream]).toEqual({ runId: "r1", seq: 1 });
      expect(await store.append("r1", "B", event("TEXT_MESSAGE_START"))).toBeUndefined();
      await store.append("r1", "A", event("RUN_ERROR", { message: "x" }), { kind: "rollback" });
      expect(await store.append("r1", "A", event("TEXT_MESSAGE_START"))).toBeUndefined();
      expect((await store.run("r1"))?.terminal?.type).toBe("RUN_ERROR");

      // A retry continues the numbering, so a client's cursor stays valid across attempts.
      expect(await store.beginRun("r1", thread, "B", 60_000)).toMatchObject({ lastSeq: 2, owner: "B" });
      await store.append("r1", "B", event("RUN_STARTED"));
      expect((await store.frames("r1", 0)).map((f) => [f.seq, f.event.type])).toEqual([
        [1, "RUN_STARTED"],
        [2, "RUN_ERROR"],
        [3, "RUN_STARTED"],
      ]);
      expect((await store.frames("r1", 2)).map((f) => f.seq)).toEqual([3]);
      expect(await store.run("unknown")).toBeUndefined();
    });

    test("commit writes the outcome record (the attempt's events) with the final state, in one step", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      await store.beginRun("r1", thread, "A", 60_000);
      await store.append("r1", "A", event("RUN_STARTED"));
      await store.append("r1", "A", event("RUN_ERROR", { message: "first attempt" }), { kind: "rollback" });
      const retry = await store.beginRun("r1", thread, "A", 60_000);
      expect(await claimOne(store, "r1")).toBe(true);
      await store.append("r1", "A", event("RUN_STARTED"));
      await store.append("r1", "A", event("RUN_FINISHED", { outcome: { type: "success" } }), {
        kind: "commit",
        key: "key-r1",
        afterSeq: retry?.lastSeq ?? 0,
        finals: [{ ref: ref("i1"), state: OccurrenceState.resolved }],
      });
      const [after] = await store.threadOccurrences(thread);
      expect(after?.state).toBe(OccurrenceState.resolved);
      expect(after?.claim).toBeNull();
      expect(after?.decision).toEqual(approve);
      expect(after?.outcome?.key).toBe("key-r1");
      expect(after?.outcome?.runId).toBe("r1");
      expect(after?.outcome?.events.map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    });

    test("rollback keeps a stored result with its decision; without one the occurrence is open again", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1"), occurrence("i2")]);
      await store.beginRun("r1", thread, "A", 60_000);
      expect(await claimOne(store, "r1", 60_000, ["i1", "i2"])).toBe(true);
      await store.beginExecution(ref("i1"), "r1", 60_000);
      await store.storeResult(ref("i1"), "r1", result("i1"), 60_000);
      await store.append("r1", "A", event("RUN_ERROR", { message: "model failed" }), { kind: "rollback" });
      const [one, two] = await store.threadOccurrences(thread);
      expect([one?.state, one?.claim, one?.decision, one?.result]).toEqual([
        OccurrenceState.pending,
        null,
        approve,
        result("i1"),
      ]);
      expect([two?.state, two?.claim, two?.decision]).toEqual([OccurrenceState.pending, null, null]);
      // Re-claimed, an occurrence with a stored result goes straight to EXECUTED: it is never run again.
      expect(await claimOne(store, "r2", 60_000, ["i1"])).toBe(true);
      expect((await store.threadOccurrences(thread))[0]?.state).toBe(OccurrenceState.executed);
      expect(await store.beginExecution(ref("i1"), "r2", 60_000)).toBe(false);
    });

    test("a tool cut off mid-run with no result becomes INDETERMINATE on rollback", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      await store.beginRun("r1", thread, "A", 60_000);
      await claimOne(store, "r1");
      await store.beginExecution(ref("i1"), "r1", 60_000);
      await store.append("r1", "A", event("RUN_ERROR", { message: "cut off" }), { kind: "rollback" });
      const [after] = await store.threadOccurrences(thread);
      expect([after?.state, after?.claim]).toEqual([OccurrenceState.indeterminate, null]);
    });

    test("the sweeper takes lapsed leases only: a claim mid-tool turns INDETERMINATE, a run gets its RUN_ERROR", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1"), occurrence("i2"), occurrence("i3")]);
      await claimOne(store, "lapsed-mid-tool", 0, ["i1"]);
      await store.beginExecution(ref("i1"), "lapsed-mid-tool", 0);
      await claimOne(store, "lapsed-before-tool", 0, ["i2"]);
      await claimOne(store, "alive", 60_000, ["i3"]);
      await store.beginRun("orphan", thread, "dead", 0);
      await store.append("orphan", "dead", event("RUN_STARTED"));
      await store.beginRun("live", thread, "A", 60_000);

      expect(await store.sweep()).toEqual({ claims: 2, runs: 1 });
      const states = (await store.threadOccurrences(thread)).map((o) => [
        o.interruptId,
        o.state,
        o.claim?.runId,
      ]);
      expect(states).toEqual([
        ["i1", OccurrenceState.indeterminate, undefined],
        ["i2", OccurrenceState.pending, undefined],
        ["i3", OccurrenceState.claimed, "alive"],
      ]);
      const orphan = await store.run("orphan");
      expect(orphan?.terminal).toMatchObject({ type: "RUN_ERROR", code: "SERVICE_UNAVAILABLE" });
      expect(orphan?.lastSeq).toBe(2);
      expect((await store.run("live"))?.terminal).toBeNull();
      expect(await store.append("orphan", "dead", event("TEXT_MESSAGE_START"))).toBeUndefined();
      expect(await store.sweep()).toEqual({ claims: 0, runs: 0 });
    });

    test("renewing keeps a claim and its run from lapsing", async () => {
      const store = await fresh();
      await store.openOccurrences([occurrence("i1")]);
      await store.beginRun("r1", thread, "A", 0);
      await claimOne(store, "r1", 0);
      await store.renewLeases("r1", "A", 60_000);
      expect(await store.sweep()).toEqual({ claims: 0, runs: 0 });
      expect((await store.threadOccurrences(thread))[0]?.claim?.runId).toBe("r1");
    });

    test("a watcher is woken after each append to its run, and not after others", async () => {
      const store = await fresh();
      await store.beginRun("r1", thread, "A", 60_000);
      await store.beginRun("r2", thread, "A", 60_000);
      let woken = 0;
      let resolveWake: () => void = () => {};
      const next = () => new Promise<void>((resolve) => (resolveWake = resolve));
      const stop = await store.watch("r1", () => {
        woken += 1;
        resolveWake();
      });
      let wake = next();
      await store.append("r2", "A", event("RUN_STARTED"));
      await store.append("r1", "A", event("RUN_STARTED"));
      await wake;
      expect(woken).toBe(1);
      stop();
      wake = next();
      await store.append("r1", "A", event("TEXT_MESSAGE_START"));
      await store.append("r2", "A", event("TEXT_MESSAGE_START"));
      // A fresh watcher on r2 proves notifications still flow; the stopped one saw nothing more.
      const stopTwo = await store.watch("r2", () => resolveWake());
      await store.append("r2", "A", event("TEXT_MESSAGE_END"));
      await wake;
      stopTwo();
      expect(woken).toBe(1);
    });

    test("retention: logs past their window expire, keys and outcomes past theirs are deleted", async () => {
      const store = await fresh();
      await store.reserveKey({ key: "k", bodyHash: "a", runId: "r1", threadId: thread });
      await store.beginRun("r1", thread, "A", 60_000);
      await store.append("r1", "A", event("RUN_FINISHED", { outcome: { type: "success" } }));
      await store.beginRun("live", thread, "A", 60_000);
      await store.append("live", "A", event("RUN_STARTED"));

      await store.prune({ idempotencyWindowMs: 3_600_000, eventLogRetentionMs: 0 });
      expect(await store.run("r1")).toMatchObject({ expired: true, lastSeq: 1 });
      expect(await store.frames("r1", 0)).toEqual([]);
      expect((await store.frames("live", 0)).length).toBe(1);
      expect(
        (await store.reserveKey({ key: "k", bodyHash: "b", runId: "r9", threadId: thread })).bodyHash,
      ).toBe("a");

      await store.prune({ idempotencyWindowMs: 0, eventLogRetentionMs: 0 });
      expect(await store.run("r1")).toBeUndefined();
      expect(await store.run("live")).toBeDefined();
      expect(
        (await store.reserveKey({ key: "k", bodyHash: "b", runId: "r9", threadId: thread })).bodyHash,
      ).toBe("b");
    });

    backgroundStoreContract(fresh);
    batchStoreContract(fresh);
  });
}
