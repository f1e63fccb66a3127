import { getEventListeners } from "node:events";
import { expect, test } from "vitest";
import type { Timers } from "../stream/timers";
import { abortableSleep } from "./abortable-sleep";

/** Timers whose callbacks run when the test says so, with the handles still pending. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (callback) => {
      next += 1;
      pending.set(next, callback);
      return next;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  const fireAll = () => {
    const callbacks = [...pending.values()];
    pending.clear();
    for (const callback of callbacks) callback();
  };
  return { timers, pending, fireAll };
}

test("a wait that runs its course leaves no listener on the signal", async () => {
  const { timers, fireAll } = manualTimers();
  const controller = new AbortController();
  // One signal lives as long as the engine, across every retry wait.
  for (let wait = 0; wait < 20; wait += 1) {
    const slept = abortableSleep(timers, 1000, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    fireAll();
    await slept;
  }
  expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
});

test("an abort ends the wait at once and clears its timer", async () => {
  const { timers, pending } = manualTimers();
  const controller = new AbortController();
  const slept = abortableSleep(timers, 60_000, controller.signal);
  expect(pending.size).toBe(1);
  controller.abort();
  await slept;
  expect(pending.size).toBe(0);
});

test("an aborted signal does not wait nor arm a timer", async () => {
  const { timers, pending } = manualTimers();
  const controller = new AbortController();
  controller.abort();
  await abortableSleep(timers, 60_000, controller.signal);
  expect(pending.size).toBe(0);
  expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
});
