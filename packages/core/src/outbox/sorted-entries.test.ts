import { expect, test } from "vitest";
import type { OutboxEntry } from "./entry";
import { compareEntries } from "./outbox-store";
import { createEntry, reduceEntry } from "./reducer";
import { withEntry, withoutEntry } from "./sorted-entries";

const sortEntries = (entries: readonly OutboxEntry[]) => [...entries].sort(compareEntries);

const entry = (key: string, now: number): OutboxEntry =>
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

const keys = (entries: readonly OutboxEntry[]) => entries.map((one) => one.key);

test("inserts in storage order, ties broken by key, without touching the input", () => {
  let sorted: readonly OutboxEntry[] = [];
  const created = [entry("c", 2), entry("a", 3), entry("b", 2), entry("d", 1), entry("a2", 3)];
  for (const one of created) {
    const before = sorted;
    sorted = withEntry(sorted, one);
    expect(before).not.toBe(sorted);
    expect(before).toHaveLength(sorted.length - 1);
  }
  expect(keys(sorted)).toEqual(["d", "b", "c", "a", "a2"]);
  expect(sorted).toEqual([...created].sort(compareEntries));
  expect(sortEntries(created)).toEqual(sorted);
});

test("an updated entry replaces its predecessor in place; removal drops only that key", () => {
  const a = entry("a", 1);
  const b = entry("b", 2);
  const c = entry("c", 3);
  const sorted = sortEntries([c, a, b]);
  const sending = reduceEntry(b, { type: "attempt-started", at: 10 });
  const updated = withEntry(sorted, sending);
  expect(updated).toEqual([a, sending, c]);
  expect(sorted).toEqual([a, b, c]);
  expect(withoutEntry(updated, sending)).toEqual([a, c]);
  expect(withoutEntry(updated, entry("zz", 2))).toBe(updated);
});
