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

/** A clock whose timers fire only when the test says so. */
class ManualClock implements ServerClock {
  readonly timers = new Set<{ readonly ms: number; readonly tick: () => void }>();

  every(ms: number, tick: () => void): () => void {
    const timer = { ms, tick };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Timers of `ms` still set (the lease renewal has its own length). */
  pending(ms: number): number {
    return [...this.timers].filter((timer) => timer.ms === ms).length;
  }

  fire(ms: number): void {
    for (const timer of [...this.timers]) if (timer.ms === ms) timer.tick();
  }
}

/** An attempt on a gated store with this commit window, a manual clock, and a way to let pending work run. */
async function windowedAttempt(window: { waitMs: number; maxEvents: number }) {
  const store = new GatedStore();
  Object.assign(store, { commitWindow: window });
  const clock = new ManualClock();
  const begun = await store.beginRun("r", "t", "A", 60_000);
  const attempt = new RunAttempt({
    store,
    owner: "A",
    runId: "r",
    threadId: "t",
    startSeq: begun?.lastSeq ?? 0,
    leaseMs: 60_000,
    clock,
    identity: undefined,
  });
  const settled = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { store, clock, attempt, settled };
}

test("events that arrive during a commit wait up to the store's commit window for more, then go in one write", async () => {
  const { store, clock, attempt, settled } = await windowedAttempt({ waitMs: 10, maxEvents: 100 });
  await attempt.push(delta("a"));
  await store.started(1);
  await attempt.push(delta("b"));
  store.commitNext();
  await settled();
  // "b" arrived during a commit: a stream is flowing, so it waits for company instead of committing alone.
  expect(store.batches).toEqual([["a"]]);
  for (const text of ["c", "d"]) await attempt.push(delta(text));
  await settled();
  expect(store.batches).toEqual([["a"]]);
  // Waiting is not committed: no reader can see "b" yet.
  expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1]);
  clock.fire(10);
  await store.started(2);
  expect(store.batches).toEqual([["a"], ["b", "c", "d"]]);
  store.commitNext();
  await settled();
  expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1, 2, 3, 4]);
  // Nothing waits now: the timer of the window is gone.
  expect(clock.pending(10)).toBe(0);
});

test("the commit window ends early at its event count, and at once for an event a caller awaits", async () => {
  const { store, attempt, settled } = await windowedAttempt({ waitMs: 10, maxEvents: 3 });
  await attempt.push(delta("a"));
  await store.started(1);
  await attempt.push(delta("b"));
  store.commitNext();
  await settled();
  expect(store.batches).toEqual([["a"]]);
  for (const text of ["c", "d"]) await attempt.push(delta(text));
  // Three waiting: the count is reached, no timer needed.
  await store.started(2);
  expect(store.batches).toEqual([["a"], ["b", "c", "d"]]);
  await attempt.push(delta("e"));
  store.commitNext();
  await settled();
  expect(store.batches).toHaveLength(2);
  // The terminal event is awaited by the run: it and "e" go now, not at the window's end.
  const done = attempt.emit(finished);
  await store.started(3);
  expect(store.batches.at(-1)).toEqual(["e", "RUN_FINISHED"]);
  store.commitNext();
  await done;
  expect(attempt.ended).toBe(true);
});

test("without a commit window (the memory store's) events that arrive during a commit go at once", async () => {
  const { store, attempt, settled } = await windowedAttempt({ waitMs: 0, maxEvents: 100 });
  await attempt.push(delta("a"));
  await store.started(1);
  await attempt.push(delta("b"));
  store.commitNext();
  await store.started(2);
  expect(store.batches).toEqual([["a"], ["b"]]);
  store.commitNext();
  await settled();
});

test("stopping the attempt ends a commit window's wait; what waited is refused, not written", async () => {
  const { store, clock, attempt, settled } = await windowedAttempt({ waitMs: 10, maxEvents: 100 });
  await attempt.push(delta("a"));
  await store.started(1);
  await attempt.push(delta("b"));
  store.commitNext();
  await settled();
  attempt.stop();
  await settled();
  expect(store.batches).toEqual([["a"]]);
  expect(clock.pending(10)).toBe(0);
  expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1]);
});
