import { deleteDB } from "idb";
import { afterEach, expect, test, vi } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import type { OutboxError } from "../errors/outbox-error";
import { requestPersistentStorage } from "../storage/request-persistence";
import { IdbStore, OUTBOX_DB_VERSION } from "./idb-store";
import { type OpenedOutboxStore, openOutboxStore } from "./open-store";

const names: string[] = [];
const opened: OpenedOutboxStore[] = [];

function uniqueName(): string {
  const name = `open-store-${Date.now()}-${names.length}`;
  names.push(name);
  return name;
}

afterEach(async () => {
  for (const { store } of opened.splice(0)) store.close();
  for (const name of names.splice(0)) await deleteDB(name);
});

test("Chromium's IndexedDB opens durably and keeps entries across a reopen", async () => {
  const dbName = uniqueName();
  const first = await openOutboxStore({ dbName });
  opened.push(first);
  expect(first.durable).toBe(true);
  expect(first.store).toBeInstanceOf(IdbStore);
  const entry = makeTestEntry();
  await first.store.put(entry);
  first.store.close();

  const second = await openOutboxStore({ dbName });
  opened.push(second);
  expect(await second.store.get(entry.key)).toEqual(entry);
});

test("another tab's upgrade closes this store instead of being blocked by it, and the store reopens", async () => {
  const dbName = uniqueName();
  const onClose = vi.fn<(reason: OutboxError) => void>();
  let reopened = () => {};
  const reopen = new Promise<void>((resolve) => {
    reopened = resolve;
  });
  const result = await openOutboxStore({ dbName, onClose, onReopen: () => reopened() });
  opened.push(result);
  expect(result.durable).toBe(true);
  const entry = makeTestEntry();
  await result.store.put(entry);

  const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName, OUTBOX_DB_VERSION + 1);
    request.onblocked = () => reject(new Error("the upgrade was blocked"));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  expect(onClose).toHaveBeenCalledTimes(1);
  upgraded.close();
  await reopen;
  expect(await result.store.get(entry.key)).toEqual(entry);
  expect((await result.store.commit({ ...entry, attempts: 1 })).committed).toBe(true);
});

test("navigator.storage.persist() is asked and answered without throwing", async () => {
  // Headless Chromium decides by its own heuristics; either answer is valid, a throw is not.
  expect(["granted", "denied"]).toContain(await requestPersistentStorage());
});
