import { expect, test } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { isOutboxError } from "../errors/outbox-error";
import { EntryState } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import { EntryBook } from "./entry-book";

/** Past any entry's expiry: the "expired" step always changes the entry. */
const LATER = Number.MAX_SAFE_INTEGER;

function bookOver(store: MemoryStore) {
  return new EntryBook({ namespace: "alice", store, publish: () => {} });
}

test("a book that may not write (this tab stopped sending) refuses every change and writes nothing", async () => {
  const store = new MemoryStore();
  const entry = makeTestEntry();
  await store.put(entry);
  const book = bookOver(store);
  await book.load();
  book.setWritable(false);
  const refused = await book
    .commit(entry.key, { type: "expired", at: LATER })
    .catch((error: unknown) => error);
  expect(isOutboxError(refused) && refused.kind === "disposed").toBe(true);
  expect(await store.get(entry.key)).toEqual(entry);
});

test("a change computed from a copy another writer replaced is not written; the book takes the stored entry", async () => {
  const store = new MemoryStore();
  const entry = makeTestEntry();
  await store.put(entry);
  const oldLeader = bookOver(store);
  await oldLeader.load();
  // The new leader wrote first.
  const newer = await store.commit({ ...entry, state: EntryState.applied });
  if (!newer.committed) throw new Error("unreachable");
  const result = await oldLeader.commit(entry.key, { type: "expired", at: LATER });
  expect(result).toEqual(newer.entry);
  expect(await store.get(entry.key)).toEqual(newer.entry);
  expect(oldLeader.get(entry.key)).toEqual(newer.entry);
});

test("a change to an entry wiped meanwhile is not written and the book forgets it", async () => {
  const store = new MemoryStore();
  const entry = makeTestEntry();
  await store.put(entry);
  const book = bookOver(store);
  await book.load();
  await store.clear("alice");
  expect(await book.commit(entry.key, { type: "expired", at: LATER })).toBeUndefined();
  expect(await store.get(entry.key)).toBeUndefined();
  expect(book.get(entry.key)).toBeUndefined();
});

test("the open entries and each thread's follow every change: a load, a settle, a move, a delete", async () => {
  const store = new MemoryStore();
  const open = makeTestEntry({ threadId: "a" });
  const settled = makeTestEntry({ threadId: "a", state: EntryState.applied });
  await store.put(open);
  await store.put(settled);
  const book = bookOver(store);
  await book.load();
  const keys = (entries: Iterable<{ key: string }>) => [...entries].map((entry) => entry.key).sort();
  expect(keys(book.open())).toEqual([open.key]);
  expect(keys(book.ofThread("a"))).toEqual(keys([open, settled]));

  const done = await book.commit(open.key, { type: "expired", at: LATER });
  expect(done && keys([done])).toEqual([open.key]);
  expect(keys(book.open())).toEqual([]);
  expect(keys(book.ofThread("a"))).toEqual(keys([open, settled]));

  // Another tab's newer copy, moved to another thread.
  book.mirror({ ...settled, threadId: "b", revision: 1_000 });
  expect(keys(book.ofThread("a"))).toEqual([open.key]);
  expect(keys(book.ofThread("b"))).toEqual([settled.key]);
  book.delete(settled.key);
  expect(book.ofThread("b")).toEqual([]);
  book.holdMore([makeTestEntry({ key: "late", threadId: "b" })]);
  expect(keys(book.open())).toEqual(["late"]);
  expect(keys(book.ofThread("b"))).toEqual(["late"]);
});
