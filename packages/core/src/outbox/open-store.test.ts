import { IDBFactory } from "fake-indexeddb";
import { afterEach, expect, test, vi } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import type { OutboxError } from "../errors/outbox-error";
import { IdbStore, OUTBOX_DB_VERSION } from "./idb-store";
import { MemoryStore } from "./memory-store";
import { type OpenedOutboxStore, openOutboxStore } from "./open-store";

const opened: OpenedOutboxStore[] = [];

async function open(options: Parameters<typeof openOutboxStore>[0]): Promise<OpenedOutboxStore> {
  const result = await openOutboxStore(options);
  opened.push(result);
  return result;
}

afterEach(() => {
  for (const { store } of opened.splice(0)) store.close();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function fallbackReason(result: OpenedOutboxStore): OutboxError {
  if (result.durable) throw new Error("expected the memory fallback");
  return result.fallbackReason;
}

/** The fallback must be a working store: nothing the person answers is dropped. */
async function expectWorkingFallback(result: OpenedOutboxStore): Promise<void> {
  expect(result.durable).toBe(false);
  expect(result.store).toBeInstanceOf(MemoryStore);
  const entry = makeTestEntry();
  await result.store.put(entry);
  expect(await result.store.listByNamespace(entry.namespace)).toEqual([entry]);
  expect(await result.store.putIfAbsentForInterrupt(makeTestEntry())).toEqual({
    inserted: false,
    existing: entry,
  });
}

test("opens IndexedDB when it is there", async () => {
  const result = await open({ indexedDB: new IDBFactory() });
  expect(result.durable).toBe(true);
  expect(result.store).toBeInstanceOf(IdbStore);
});

test("uses the global factory when none is injected, read at call time", async () => {
  const durable = await open({ dbName: "open-store-global" });
  expect(durable.durable).toBe(true);

  vi.stubGlobal("indexedDB", undefined);
  const fallback = await open({ dbName: "open-store-global" });
  expect(fallbackReason(fallback).kind).toBe("storage_unavailable");
  await expectWorkingFallback(fallback);
});

test("no IndexedDB at all (SSR, Node): falls back to memory and says why", async () => {
  const result = await open({ indexedDB: undefined });
  const reason = fallbackReason(result);
  expect(reason.kind).toBe("storage_unavailable");
  expect(reason.message).toContain("not available");
  await expectWorkingFallback(result);
});

test("a factory whose open throws (sandboxed frame, private mode): falls back", async () => {
  const thrown = new DOMException("access denied", "SecurityError");
  const factory = {
    open: () => {
      throw thrown;
    },
  } as unknown as IDBFactory;
  const result = await open({ indexedDB: factory });
  const reason = fallbackReason(result);
  expect(reason.kind).toBe("storage_unavailable");
  expect(reason.message).toContain("SecurityError");
  expect(reason.cause).toBe(thrown);
  await expectWorkingFallback(result);
});

test("a newer database version on disk without the outbox stores: falls back and says why", async () => {
  const factory = new IDBFactory();
  await new Promise<void>((resolve, reject) => {
    const request = factory.open("outbox-newer", 5);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
  const result = await open({ indexedDB: factory, dbName: "outbox-newer" });
  const reason = fallbackReason(result);
  expect(reason.kind).toBe("storage_unavailable");
  expect(reason.message).toContain("not an outbox database");
  await expectWorkingFallback(result);
});

test("a newer database version that keeps the outbox stores (newer code in another tab) is used as is", async () => {
  const factory = new IDBFactory();
  const first = await open({ indexedDB: factory, dbName: "outbox-newer-compatible" });
  const entry = makeTestEntry();
  await first.store.put(entry);
  first.store.close();
  await new Promise<void>((resolve, reject) => {
    const request = factory.open("outbox-newer-compatible", OUTBOX_DB_VERSION + 3);
    request.onupgradeneeded = () => request.result.createObjectStore("added-by-newer-code");
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
  const result = await open({ indexedDB: factory, dbName: "outbox-newer-compatible" });
  expect(result.durable).toBe(true);
  expect(await result.store.get(entry.key)).toEqual(entry);
});

test("a database with our name but another schema is not used", async () => {
  const factory = new IDBFactory();
  await new Promise<void>((resolve, reject) => {
    const request = factory.open("someone-elses", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("other");
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
  const result = await open({ indexedDB: factory, dbName: "someone-elses" });
  expect(fallbackReason(result).message).toContain("not an outbox database");
  await expectWorkingFallback(result);
});

test("a blocked open falls back at once and releases the connection if it completes later", async () => {
  const request = Object.assign(new EventTarget(), {
    result: undefined as unknown,
    error: null,
    transaction: null,
  });
  const factory = { open: () => request } as unknown as IDBFactory;
  const pending = open({ indexedDB: factory });
  request.dispatchEvent(new Event("blocked"));
  const result = await pending;
  expect(fallbackReason(result).message).toContain("blocked");
  await expectWorkingFallback(result);

  const close = vi.fn();
  request.result = { close };
  request.dispatchEvent(new Event("success"));
  expect(close).toHaveBeenCalledTimes(1);
});

test("another tab upgrading the database: the store closes itself, reopens at the new version and continues", async () => {
  const factory = new IDBFactory();
  const onClose = vi.fn<(reason: OutboxError) => void>();
  let reopened = () => {};
  const onReopen = vi.fn(() => reopened());
  const result = await open({ indexedDB: factory, dbName: "outbox-upgrade", onClose, onReopen });
  expect(result.durable).toBe(true);
  const entry = makeTestEntry();
  await result.store.put(entry);
  const reopen = new Promise<void>((resolve) => {
    reopened = resolve;
  });

  const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open("outbox-upgrade", OUTBOX_DB_VERSION + 1);
    request.onblocked = () => reject(new Error("the upgrade was blocked"));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

  expect(onClose).toHaveBeenCalledTimes(1);
  expect(onClose.mock.calls[0]?.[0].kind).toBe("storage_unavailable");
  // A call made while the store reopens waits for it rather than failing.
  const during = result.store.get(entry.key);
  upgraded.close();
  await reopen;
  expect(await during).toEqual(entry);
  expect(onReopen).toHaveBeenCalledTimes(1);
  const sending = await result.store.commit({ ...entry, state: "sending" });
  expect(sending.committed).toBe(true);
});

test("a store whose database turns into something else cannot reopen: it says so, once, and never spins", async () => {
  const factory = new IDBFactory();
  const onUnavailable = vi.fn<(reason: OutboxError) => void>();
  const result = await open({ indexedDB: factory, dbName: "outbox-replaced", onUnavailable });
  const store = result.store as IdbStore;
  // Newer code that dropped the stores this code needs.
  await new Promise<void>((resolve, reject) => {
    const request = factory.open("outbox-replaced", OUTBOX_DB_VERSION + 1);
    request.onupgradeneeded = () => request.result.deleteObjectStore("entries");
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
  await expect(store.get("any")).rejects.toMatchObject({ kind: "storage_unavailable" });
  expect(store.connection).toBe("unavailable");
  expect(onUnavailable).toHaveBeenCalledTimes(1);
  expect(onUnavailable.mock.calls[0]?.[0].message).toContain("not an outbox database");
  await expect(store.commit(makeTestEntry())).rejects.toMatchObject({ kind: "storage_unavailable" });
  expect(onUnavailable).toHaveBeenCalledTimes(1);
});

test("importing the store modules touches no browser global (SSR safe)", async () => {
  const touched: string[] = [];
  for (const name of [
    "indexedDB",
    "IDBFactory",
    "IDBRequest",
    "IDBDatabase",
    "IDBObjectStore",
    "navigator",
  ]) {
    vi.stubGlobal(name, undefined);
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get: () => {
        touched.push(name);
        throw new Error(`${name} read at import time`);
      },
    });
  }
  vi.resetModules();
  const module = await import("./open-store");
  await import("../storage/request-persistence");
  expect(typeof module.openOutboxStore).toBe("function");
  expect(touched).toEqual([]);
});
