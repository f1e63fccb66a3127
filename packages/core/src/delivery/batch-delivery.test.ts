import { expect, test } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import type { ThreadRegistry } from "../thread/thread-registry";
import { BatchDelivery } from "./batch-delivery";
import { EntryBook } from "./entry-book";

// Sealing reads and writes the entries only; the transport is used for verdicts.
const NO_THREADS = {} as ThreadRegistry;
const BATCH = { interruptIds: ["interrupt-a", "interrupt-b"] };

async function twoHeldAnswers(store: MemoryStore): Promise<[OutboxEntry, OutboxEntry]> {
  const first = makeTestEntry({ interruptId: "interrupt-a", state: EntryState.held, body: "", batch: BATCH });
  const second = makeTestEntry({
    interruptId: "interrupt-b",
    state: EntryState.held,
    body: "",
    batch: BATCH,
  });
  await store.put(first);
  await store.put(second);
  return [first, second];
}

async function tabOver(store: MemoryStore) {
  const book = new EntryBook({ namespace: "alice", store, publish: () => {} });
  await book.load();
  return { book, batches: new BatchDelivery(book, NO_THREADS) };
}

/** Exactly one answer sends (no `sendsWith`), and every other one follows it. */
function expectOneSender(entries: readonly OutboxEntry[]): OutboxEntry {
  const senders = entries.filter((entry) => entry.batch?.sendsWith === undefined);
  expect(senders).toHaveLength(1);
  const sender = senders[0] as OutboxEntry;
  expect(sender.state).toBe(EntryState.queued);
  for (const entry of entries) if (entry !== sender) expect(entry.batch?.sendsWith).toBe(sender.key);
  return sender;
}

test("two tabs each answer one question of a batch at the same moment: one sender, the other follows it", async () => {
  const store = new MemoryStore();
  const [first, second] = await twoHeldAnswers(store);
  // Each tab sees both answers held, and each seals from its own.
  const [tabA, tabB] = await Promise.all([tabOver(store), tabOver(store)]);
  await Promise.all([
    tabA.batches.seal(first, "contract", 2_000),
    tabB.batches.seal(second, "contract", 2_000),
  ]);
  const stored = await store.listByNamespace("alice");
  const sender = expectOneSender(stored);
  // Its body carries every answer, under its own key and run.
  expect(JSON.parse(sender.body)).toMatchObject({ runId: sender.runId });
  expect(sender.body).toContain(sender.key);
});

test("one tab seals: the last answered sends for the batch", async () => {
  const store = new MemoryStore();
  const [, second] = await twoHeldAnswers(store);
  const tab = await tabOver(store);
  await tab.batches.seal(second, "contract", 2_000);
  expect(expectOneSender(await store.listByNamespace("alice")).key).toBe(second.key);
});

test("a seal from the earlier answer still makes the last answered the sender", async () => {
  const store = new MemoryStore();
  const [first, second] = await twoHeldAnswers(store);
  const tab = await tabOver(store);
  const sealed = await tab.batches.seal(first, "contract", 2_000);
  expect(sealed?.batch?.sendsWith).toBe(second.key);
  expect(expectOneSender(await store.listByNamespace("alice")).key).toBe(second.key);
});
