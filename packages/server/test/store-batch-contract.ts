import { type AgUiEvent, MetadataKey } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import type { ContractStore } from "../src/store/contract-store";
import { OccurrenceState } from "../src/store/records";

/**
 * The batched append, run inside each store's suite: a batch is one step, so
 * its events get consecutive seqs in order, an owner that lost the run writes
 * none of them, and a terminal event at its end settles in the same step.
 */
export function batchStoreContract(fresh: () => Promise<ContractStore>): void {
  const thread = "thread-batch";
  const event = (type: string, extra: Record<string, unknown> = {}) =>
    ({ type, threadId: thread, runId: "r", ...extra }) as AgUiEvent;
  const delta = (text: string) => event("TEXT_MESSAGE_CONTENT", { messageId: "m", delta: text });
  const seqs = async (store: ContractStore, runId: string) =>
    (await store.frames(runId, 0)).map((f) => [f.seq, f.event.type, (f.event as { delta?: string }).delta]);

  test("a batch's events get consecutive seqs in order, each with its cursor, after single appends", async () => {
    const store = await fresh();
    await store.beginRun("b1", thread, "A", 60_000);
    await store.append("b1", "A", event("RUN_STARTED"));
    const frames = await store.appendMany("b1", "A", [delta("a"), delta("b"), delta("c")]);
    expect(frames?.map((f) => f.seq)).toEqual([2, 3, 4]);
    expect(frames?.map((f) => f.event.metadata?.[MetadataKey.stream])).toEqual([
      { runId: "b1", seq: 2 },
      { runId: "b1", seq: 3 },
      { runId: "b1", seq: 4 },
    ]);
    expect(await store.append("b1", "A", delta("d"))).toMatchObject({ seq: 5 });
    expect(await seqs(store, "b1")).toEqual([
      [1, "RUN_STARTED", undefined],
      [2, "TEXT_MESSAGE_CONTENT", "a"],
      [3, "TEXT_MESSAGE_CONTENT", "b"],
      [4, "TEXT_MESSAGE_CONTENT", "c"],
      [5, "TEXT_MESSAGE_CONTENT", "d"],
    ]);
    expect((await store.run("b1"))?.lastSeq).toBe(5);
    expect(await store.appendMany("b1", "A", [])).toEqual([]);
  });

  test("a batch from an owner that lost the run is refused whole: no event of it is written", async () => {
    const store = await fresh();
    await store.beginRun("b2", thread, "A", 60_000);
    await store.appendMany("b2", "A", [event("RUN_STARTED"), delta("a")]);
    // The lease lapses and the sweeper ends the attempt; a new owner takes the run over.
    await store.renewLeases("b2", "A", 0);
    await store.sweep();
    await store.beginRun("b2", thread, "B", 60_000);
    expect(await store.appendMany("b2", "A", [delta("late-1"), delta("late-2")])).toBeUndefined();
    expect(await store.appendMany("b2", "B", [event("RUN_STARTED")])).toMatchObject([{ seq: 4 }]);
    expect((await seqs(store, "b2")).map(([seq, type]) => [seq, type])).toEqual([
      [1, "RUN_STARTED"],
      [2, "TEXT_MESSAGE_CONTENT"],
      [3, "RUN_ERROR"],
      [4, "RUN_STARTED"],
    ]);
  });

  test("a terminal event ending a batch ends the attempt and settles its claims in the same step", async () => {
    const store = await fresh();
    await store.openOccurrences([
      {
        threadId: thread,
        interruptId: "i1",
        toolCallId: "call-i1",
        toolName: "deploy",
        args: {},
        interrupt: { id: "i1", reason: "approval", toolCallId: "call-i1" },
        expiresAt: Date.now() + 3_600_000,
      },
    ]);
    const begun = await store.beginRun("b3", thread, "A", 60_000);
    const [current] = await store.threadOccurrences(thread);
    const decision = { status: "resolved" as const, payload: { approved: true } };
    await store.claim({
      runId: "b3",
      key: "key-b3",
      leaseMs: 60_000,
      claims: [{ ref: { threadId: thread, interruptId: "i1" }, version: current?.version ?? -1, decision }],
    });
    const finished = event("RUN_FINISHED", { outcome: { type: "success" } });
    const frames = await store.appendMany("b3", "A", [event("RUN_STARTED"), delta("a"), finished], {
      kind: "commit",
      key: "key-b3",
      afterSeq: begun?.lastSeq ?? 0,
      finals: [{ ref: { threadId: thread, interruptId: "i1" }, state: OccurrenceState.resolved }],
    });
    expect(frames?.map((f) => f.seq)).toEqual([1, 2, 3]);
    const run = await store.run("b3");
    expect(run?.terminal?.type).toBe("RUN_FINISHED");
    expect(run?.terminal?.metadata?.[MetadataKey.stream]).toEqual({ runId: "b3", seq: 3 });
    const [after] = await store.threadOccurrences(thread);
    expect(after?.state).toBe(OccurrenceState.resolved);
    expect(after?.claim).toBeNull();
    expect(after?.outcome?.events.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_CONTENT",
      "RUN_FINISHED",
    ]);
    // Ended: the next batch is refused.
    expect(await store.appendMany("b3", "A", [delta("after")])).toBeUndefined();
  });

  test("a terminal event before a batch's end is a RangeError, and nothing of the batch is written", async () => {
    const store = await fresh();
    await store.beginRun("b4", thread, "A", 60_000);
    await expect(
      store.appendMany("b4", "A", [event("RUN_STARTED"), event("RUN_ERROR", { message: "x" }), delta("a")]),
    ).rejects.toThrow(RangeError);
    expect(await store.frames("b4", 0)).toEqual([]);
    expect(await store.run("b4")).toMatchObject({ lastSeq: 0, terminal: null });
  });

  test("a watcher is woken after a batch is written, and reads all of it at once", async () => {
    const store = await fresh();
    await store.beginRun("b5", thread, "A", 60_000);
    const read: number[][] = [];
    let resolveWake: () => void = () => {};
    const woken = new Promise<void>((resolve) => (resolveWake = resolve));
    const stop = await store.watch("b5", () => {
      store.frames("b5", 0).then((frames) => {
        read.push(frames.map((f) => f.seq));
        resolveWake();
      });
    });
    await store.appendMany("b5", "A", [event("RUN_STARTED"), delta("a"), delta("b")]);
    await woken;
    stop();
    expect(read[0]).toEqual([1, 2, 3]);
  });
}
