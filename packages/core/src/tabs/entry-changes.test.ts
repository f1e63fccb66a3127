import { expect, test } from "vitest";
import type { OutboxEntry } from "../outbox/entry";
import { createEntry, reduceEntry } from "../outbox/reducer";
import { createEntryChangeTracker } from "./entry-changes";

const entry = (key: string, now = 1_000): OutboxEntry =>
  createEntry({
    key,
    namespace: "alice",
    threadId: "thread-1",
    interruptId: `interrupt-${key}`,
    runId: `run-${key}`,
    body: "{}",
    decision: { kind: "approve" },
    now,
  });

test("reports new, updated and removed entries once each", () => {
  const tracker = createEntryChangeTracker();
  const a = entry("a");
  const b = entry("b");
  expect(tracker.observe([a, b])).toEqual({ changed: [a, b], removed: [] });
  expect(tracker.observe([a, b])).toEqual({ changed: [], removed: [] });

  const sending = reduceEntry(a, { type: "attempt-started", at: 2_000 });
  expect(sending.updatedAt).toBe(2_000);
  expect(tracker.observe([sending, b])).toEqual({ changed: [sending], removed: [] });
  expect(tracker.observe([sending])).toEqual({ changed: [], removed: ["b"] });
  expect(tracker.observe([])).toEqual({ changed: [], removed: ["a"] });
});

test("a copy with the same timestamp and state is not a change; a new state in the same millisecond is", () => {
  const tracker = createEntryChangeTracker();
  const a = entry("a");
  tracker.observe([a]);
  expect(tracker.observe([{ ...a }]).changed).toEqual([]);
  const sameMillisecond = reduceEntry(a, { type: "attempt-started", at: a.updatedAt });
  expect(sameMillisecond.state).not.toBe(a.state);
  expect(tracker.observe([sameMillisecond]).changed).toEqual([sameMillisecond]);
});

test("stream progress within one millisecond is a change", () => {
  const tracker = createEntryChangeTracker();
  const acked = reduceEntry(reduceEntry(entry("a"), { type: "attempt-started", at: 1_000 }), {
    type: "claim-acked",
    runId: "run-a",
    seq: 1,
    at: 1_000,
  });
  tracker.observe([acked]);
  const seen = reduceEntry(acked, { type: "event-seen", seq: 2, at: 1_000 });
  expect(seen.cursor.lastSeq).toBe(2);
  expect(tracker.observe([seen]).changed).toEqual([seen]);
});

test("one key at a time: the same answers as comparing the whole list", () => {
  const tracker = createEntryChangeTracker();
  const a = entry("a");
  const b = entry("b");
  expect(tracker.observe([a])).toEqual({ changed: [a], removed: [] });
  expect(tracker.observeEntry("b", b)).toEqual({ changed: [b], removed: [] });
  expect(tracker.observeEntry("a", { ...a })).toEqual({ changed: [], removed: [] });
  const sending = reduceEntry(a, { type: "attempt-started", at: a.updatedAt });
  expect(tracker.observeEntry("a", sending)).toEqual({ changed: [sending], removed: [] });
  expect(tracker.observeEntry("b", undefined)).toEqual({ changed: [], removed: ["b"] });
  expect(tracker.observeEntry("b", undefined)).toEqual({ changed: [], removed: [] });
  // A full comparison afterwards starts from what the single-key calls left.
  expect(tracker.observe([sending])).toEqual({ changed: [], removed: [] });
});
