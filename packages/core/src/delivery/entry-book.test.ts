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
