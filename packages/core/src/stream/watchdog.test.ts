import { afterEach, expect, test, vi } from "vitest";
import { ErrorKind, type OutboxError } from "../errors/outbox-error";
import type { Timers } from "./timers";
import { createStallWatchdog, DEFAULT_STALL_TIMEOUT_MS } from "./watchdog";

afterEach(() => {
  vi.useRealTimers();
});

/** A hand-rolled scheduler: shows the watchdog uses only the timers it is given. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers = {
    setTimeout: (callback: () => void, ms: number) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle: unknown) => {
      pending.delete(handle as number);
    },
  } satisfies Timers;
  return {
    timers,
    pendingCount: () => pending.size,
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    },
  };
}

test("the default interval is 45 s", () => {
  expect(DEFAULT_STALL_TIMEOUT_MS).toBe(45_000);
});

test("fires once with stream_stalled after the timeout without a touch", () => {
  const clock = fakeTimers();
  const stalls: OutboxError[] = [];
  const watchdog = createStallWatchdog({
    timeoutMs: 1_000,
    timers: clock.timers,
    onStall: (e) => stalls.push(e),
  });
  clock.advance(999);
  expect(stalls).toEqual([]);
  clock.advance(1);
  expect(stalls.map((e) => e.kind)).toEqual([ErrorKind.streamStalled]);
  expect(watchdog.fired).toBe(true);
  watchdog.touch();
  clock.advance(5_000);
  expect(stalls).toHaveLength(1);
  expect(clock.pendingCount()).toBe(0);
});

test("every touch restarts the countdown", () => {
  const clock = fakeTimers();
  const onStall = vi.fn();
  const watchdog = createStallWatchdog({ timeoutMs: 1_000, timers: clock.timers, onStall });
  for (let i = 0; i < 10; i++) {
    clock.advance(900);
    watchdog.touch();
  }
  expect(onStall).not.toHaveBeenCalled();
  clock.advance(999);
  expect(onStall).not.toHaveBeenCalled();
  clock.advance(1);
  expect(onStall).toHaveBeenCalledTimes(1);
});

test("pause suspends the countdown and touch resumes it from zero", () => {
  const clock = fakeTimers();
  const onStall = vi.fn();
  const watchdog = createStallWatchdog({ timeoutMs: 1_000, timers: clock.timers, onStall });
  clock.advance(600);
  watchdog.pause();
  clock.advance(10_000);
  expect(onStall).not.toHaveBeenCalled();
  watchdog.touch();
  clock.advance(999);
  expect(onStall).not.toHaveBeenCalled();
  clock.advance(1);
  expect(onStall).toHaveBeenCalledTimes(1);
});

test("stop cancels for good and leaves no timer behind", () => {
  const clock = fakeTimers();
  const onStall = vi.fn();
  const watchdog = createStallWatchdog({ timeoutMs: 1_000, timers: clock.timers, onStall });
  watchdog.stop();
  watchdog.touch();
  watchdog.stop();
  expect(clock.pendingCount()).toBe(0);
  clock.advance(10_000);
  expect(onStall).not.toHaveBeenCalled();
});

test("the default timers are looked up at call time, so vi fake timers drive them", () => {
  vi.useFakeTimers();
  const onStall = vi.fn();
  const watchdog = createStallWatchdog({ onStall });
  vi.advanceTimersByTime(30_000);
  watchdog.touch();
  vi.advanceTimersByTime(44_999);
  expect(onStall).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(onStall).toHaveBeenCalledTimes(1);
});
