import { expect, test } from "vitest";
import { EntryState, type OutboxEntry, SETTLED_STATES } from "../../src/outbox/entry";
import { IdbStore } from "../../src/outbox/idb-store";
import { makeTestEntry } from "./store-contract";

/** Writes a database exactly as version 1 (or 2: background runs in a store of their own) laid it out. */
async function writeV1Database(
  factory: IDBFactory,
  dbName: string,
  content: {
    readonly entries: readonly OutboxEntry[];
    readonly meta: readonly { namespace: string; id: string; value: unknown }[];
  },
  version = 1,
): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(dbName, version);
    request.onupgradeneeded = () => {
      if (version >= 2) {
        const background = request.result.createObjectStore("background", {
          keyPath: ["namespace", "runId"],
        });
        background.createIndex("by-namespace", "namespace");
      }
      const entries = request.result.createObjectStore("entries", { keyPath: "key" });
      entries.createIndex("by-namespace", "namespace");
      entries.createIndex("by-interrupt", ["namespace", "threadId", "interruptId"]);
      const meta = request.result.createObjectStore("meta", { keyPath: ["namespace", "id"] });
      meta.createIndex("by-namespace", "namespace");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(["entries", "meta"], "readwrite");
    for (const entry of content.entries) tx.objectStore("entries").put(entry);
    for (const record of content.meta) tx.objectStore("meta").put(record);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

function backgroundRecord(runId: string, threadId: string) {
  return {
    runId,
    threadId,
    continuationToken: `bgt_${runId}`,
    lastSeq: 3,
    status: "in_progress",
    verdict: "polling",
    verdictReason: null,
    rule: null,
    attempts: 0,
    failingSince: null,
    nextPollAt: 5_000,
    lastError: null,
    createdAt: 1_000,
    updatedAt: 2_000,
  };
}

/**
 * The v1 → v2 upgrade: a database full of entries (every state, two
 * namespaces), metadata and background runs in the v1 layout — including a
 * run the v1 id list lost to two tabs racing — opens with nothing lost.
 */
export function runV1MigrationCase(label: string, factory: () => IDBFactory, dbName: () => string): void {
  test(`upgrading a v1 database full of entries and background runs loses nothing (${label})`, async () => {
    const idb = factory();
    const name = dbName();
    const entries: OutboxEntry[] = [];
    for (const namespace of ["alice", "bob"]) {
      for (const state of Object.values(EntryState)) {
        for (let i = 0; i < 20; i += 1) {
          entries.push(makeTestEntry({ namespace, state, interruptId: `interrupt-${state}-${i}` }));
        }
      }
    }
    const aliceRuns = Array.from({ length: 30 }, (_, i) => backgroundRecord(`run-a${i}`, `thread-${i}`));
    const meta = [
      { namespace: "alice", id: "capabilities", value: { serverKind: "contract" } },
      // The v1 id list misses run-a29: two tabs' read-modify-write lost it.
      { namespace: "alice", id: "background-runs", value: aliceRuns.slice(0, 29).map((run) => run.runId) },
      ...aliceRuns.map((run) => ({ namespace: "alice", id: `background-run:${run.runId}`, value: run })),
      { namespace: "bob", id: "background-runs", value: ["run-b0"] },
      { namespace: "bob", id: "background-run:run-b0", value: backgroundRecord("run-b0", "thread-b") },
    ];
    await writeV1Database(idb, name, { entries, meta });

    const store = await IdbStore.open({ indexedDB: idb, dbName: name });
    try {
      for (const namespace of ["alice", "bob"]) {
        const own = entries.filter((entry) => entry.namespace === namespace);
        expect(await store.listByNamespace(namespace)).toEqual(own);
        // The state index is built over the rows already there.
        expect(await store.listByNamespace(namespace, "open")).toEqual(
          own.filter((entry) => !SETTLED_STATES.includes(entry.state)),
        );
      }
      const byRunId = (records: unknown[]) =>
        (records as { runId: string }[]).map((record) => record.runId).sort();
      expect(byRunId(await store.listBackgroundRuns("alice"))).toEqual(
        aliceRuns.map((run) => run.runId).sort(),
      );
      expect(await store.listBackgroundRuns("bob")).toEqual([backgroundRecord("run-b0", "thread-b")]);
      expect(await store.getMeta("alice", "capabilities")).toEqual({ serverKind: "contract" });
      // The v1 layout is gone from meta: one place holds each run.
      expect(await store.getMeta("alice", "background-runs")).toBeUndefined();
      expect(await store.getMeta("alice", "background-run:run-a0")).toBeUndefined();

      // Migrated entries take part in compare-and-set from revision 0.
      const [first] = await store.listByNamespace("alice");
      if (first === undefined) throw new Error("missing entry");
      expect((await store.commit({ ...first, attempts: first.attempts + 1 })).committed).toBe(true);
    } finally {
      store.close();
    }
  });
}

/** The v2 → v3 upgrade: the state index is built over every stored entry; reads are unchanged. */
export function runV2MigrationCase(label: string, factory: () => IDBFactory, dbName: () => string): void {
  test(`upgrading a v2 database indexes its entries by state and loses nothing (${label})`, async () => {
    const idb = factory();
    const name = dbName();
    const entries = Object.values(EntryState).map((state) =>
      makeTestEntry({ state, interruptId: `interrupt-${state}` }),
    );
    const meta = [{ namespace: "alice", id: "capabilities", value: { serverKind: "contract" } }];
    await writeV1Database(idb, name, { entries, meta }, 2);

    const store = await IdbStore.open({ indexedDB: idb, dbName: name });
    try {
      expect(await store.listByNamespace("alice")).toEqual(entries);
      const settled = (entry: OutboxEntry) => SETTLED_STATES.includes(entry.state);
      expect(await store.listByNamespace("alice", "open")).toEqual(
        entries.filter((entry) => !settled(entry)),
      );
      expect(await store.listByNamespace("alice", "settled")).toEqual(entries.filter(settled));
      expect(await store.getMeta("alice", "capabilities")).toEqual({ serverKind: "contract" });
    } finally {
      store.close();
    }
  });
}
