import { deleteDB } from "idb";
import { afterEach, expect, test, vi } from "vitest";
import type { OutboxError } from "../errors/outbox-error";
import { requestPersistentStorage } from "../storage/request-persistence";
import { IdbStore } from "./idb-store";
import { type OpenedOutboxStore, openOutboxStore } from "./open-store";
import { makeTestEntry } from "./store-contract";

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

test("another tab's upgrade closes this store instead of being blocked by it", async () => {
  const dbName = uniqueName();
  const onClose = vi.fn<(reason: OutboxError) => void>();
  const result = await openOutboxStore({ dbName, onClose });
  opened.push(result);
  expect(result.durable).toBe(true);

  const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName, 2);
    request.onblocked = () => reject(new Error("the upgrade was blocked"));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  upgraded.close();
  expect(onClose).toHaveBeenCalledTimes(1);
  await expect(result.store.put(makeTestEntry())).rejects.toMatchObject({ kind: "storage_unavailable" });
});

test("navigator.storage.persist() is asked and answered without throwing", async () => {
  // Headless Chromium decides by its own heuristics; either answer is valid, a throw is not.
  expect(["granted", "denied"]).toContain(await requestPersistentStorage());
});
