import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import { LeaseLost, RunAttempt } from "../src/engine/run-attempt";
import type { ServerClock } from "../src/engine/server-clock";
import { MemoryStore } from "../src/store/memory-store";
import type { Settlement, StoredFrame } from "../src/store/records";

const neverTicks: ServerClock = { every: () => () => {} };
const delta = (text: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: text }) as AgUiEvent;
const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r" } as AgUiEvent;

/** A memory store whose batch writes wait for the test to let each one commit; it records what each held. */
class GatedStore extends MemoryStore {
  readonly batches: string[][] = [];
  readonly #gates: (() => void)[] = [];
  #arrived: () => void = () => {};

  override async appendMany(
    runId: string,
    owner: string,
    events: readonly AgUiEvent[],
    settle?: Settlement,
  ): Promise<StoredFrame[] | undefined> {
    this.batches.push(events.map((event) => (event as { delta?: string }).delta ?? event.type));
    this.#arrived();
    await new Promise<void>((resolve) => this.#gates.push(resolve));
    return super.appendMany(runId, owner, events, settle);
  }

  /** Resolves once `count` writes have started. */
  async started(count: number): Promise<void> {
    while (this.batches.length < count) await new Promise<void>((resolve) => (this.#arrived = resolve));
  }

  commitNext(): void {
    this.#gates.shift()?.();
  }
}

async function attemptOn(store: GatedStore): Promise<RunAttempt> {
  const begun = await store.beginRun("r", "t", "A", 60_000);
  return new RunAttempt({
    store,
    owner: "A",
    runId: "r",
    threadId: "t",
    startSeq: begun?.lastSeq ?? 0,
    leaseMs: 60_000,
    clock: neverTicks,
    identity: undefined,
  });
}

test("events pushed while a write is in flight go in the next write together, in order", async () => {
  const store = new GatedStore();
  const attempt = await attemptOn(store);
  await attempt.push(delta("a"));
  await store.started(1);
  for (const text of ["b", "c", "d"]) await attempt.push(delta(text));
  const done = attempt.emit(finished);
  expect(store.batches).toEqual([["a"]]);
  store.commitNext();
  await store.started(2);
  expect(store.batches).toEqual([["a"], ["b", "c", "d", "RUN_FINISHED"]]);
  // Nothing of the second batch is in the log (so no reader sees it) until its write commits.
  expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1]);
  store.commitNext();
  await done;
  expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1, 2, 3, 4, 5]);
  expect(attempt.ended).toBe(true);
});

test("a batch refused because the lease was lost ends the attempt; the next push says so", async () => {
  const store = new GatedStore();
  const attempt = await attemptOn(store);
  await attempt.push(delta("a"));
  await store.started(1);
  await attempt.push(delta("b"));
  // Another instance's sweeper ends this attempt while its write waits.
  await store.renewLeases("r", "A", 0);
  await store.sweep();
  store.commitNext();
  await expect(attempt.emit(finished)).rejects.toThrow(LeaseLost);
  // Neither "a" (refused) nor "b" (queued behind it) is in the log.
  expect(store.batches).toEqual([["a"]]);
  expect((await store.frames("r", 0)).map((frame) => frame.event.type)).toEqual(["RUN_ERROR"]);
  expect(attempt.ended).toBe(true);
  await expect(attempt.push(delta("c"))).rejects.toThrow(LeaseLost);
});

test("a write that failed is reported to the next call, and a RUN_ERROR can still be written after it", async () => {
  const store = new GatedStore();
  const attempt = await attemptOn(store);
  const broken = new Error("connection reset");
  const appendMany = store.appendMany.bind(store);
  store.appendMany = async (...args) => {
    if ((args[2][0] as { delta?: string }).delta === "a") throw broken;
    return appendMany(...args);
  };
  await attempt.push(delta("a"));
  // Queued behind the failed write: never written, or the log would skip "a" mid-stream.
  await expect(attempt.emit(finished)).rejects.toBe(broken);
  const error = { type: "RUN_ERROR", message: "the agent failed" } as AgUiEvent;
  const written = attempt.emit(error, { kind: "rollback" });
  await store.started(1);
  store.commitNext();
  await written;
  expect((await store.frames("r", 0)).map((frame) => frame.event.type)).toEqual(["RUN_ERROR"]);
  expect(attempt.ended).toBe(true);
});
