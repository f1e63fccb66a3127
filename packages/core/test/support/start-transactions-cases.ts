import { expect, test } from "vitest";
import { createOutboxClient } from "../../src/client/create-outbox-client";
import type { FetchLike } from "../../src/client/deps";
import { EntryState } from "../../src/outbox/entry";
import { IdbStore } from "../../src/outbox/idb-store";
import { makeTestEntry } from "./store-contract";

const NAMESPACE = "start-tx";

/** What the page asked of IndexedDB and of the network, in order. */
type Happening =
  | { readonly type: "transaction"; readonly stores: string; readonly mode: IDBTransactionMode }
  | { readonly type: "complete"; readonly stores: string }
  | { readonly type: "fetch"; readonly what: "resume" | "capabilities" | "other" };

/** Records every transaction opened on any IndexedDB connection until `stop`. */
function recordTransactions(log: Happening[]): () => void {
  const prototype = globalThis.IDBDatabase.prototype;
  const original = prototype.transaction;
  prototype.transaction = function (
    this: IDBDatabase,
    names: string | string[],
    mode?: IDBTransactionMode,
    options?: IDBTransactionOptions,
  ) {
    const tx = original.call(this, names, mode, options);
    const stores = [names].flat().sort().join("+");
    log.push({ type: "transaction", stores, mode: mode ?? "readonly" });
    tx.addEventListener("complete", () => log.push({ type: "complete", stores }));
    return tx;
  } as typeof original;
  return () => {
    prototype.transaction = original;
  };
}

/** A fetch that records each request, answers capabilities, and holds every resume (never sent). */
function trap(log: Happening[]): { fetch: FetchLike; resumes: () => number; reached: Promise<void> } {
  let resumes = 0;
  let mark: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    mark = resolve;
  });
  return {
    reached,
    resumes: () => resumes,
    fetch: async (input, init) => {
      if (new Headers(init?.headers).has("idempotency-key")) {
        log.push({ type: "fetch", what: "resume" });
        resumes += 1;
        mark();
        return new Promise<Response>(() => {});
      }
      if (input.endsWith("/capabilities")) {
        log.push({ type: "fetch", what: "capabilities" });
        return new Response(JSON.stringify({ custom: {} }), { status: 200 });
      }
      log.push({ type: "fetch", what: "other" });
      return new Response("{}", { status: 404 });
    },
  };
}

async function seed(dbName: string, cachedKind: string | undefined) {
  const store = await IdbStore.open({ dbName });
  if (cachedKind !== undefined) await store.putMeta(NAMESPACE, "server-kind", cachedKind);
  // In flight when the last page died: its body was fixed at its first send.
  const now = Date.now();
  const entry = makeTestEntry({
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 3_600_000,
    namespace: NAMESPACE,
    state: EntryState.sending,
    attempts: 1,
    everSent: true,
    body: JSON.stringify({ threadId: "thread-1", runId: "run-recovered" }),
  });
  await store.put(entry);
  store.close();
  return entry;
}

async function stored(dbName: string, key: string) {
  const store = await IdbStore.open({ dbName });
  try {
    return await store.get(key);
  } finally {
    store.close();
  }
}

/**
 * The start of a sending tab on real IndexedDB (fake-indexeddb in Node, Chromium's
 * own in the browser), counted at the database: which transactions run before a
 * recovered answer is handed to fetch. Declares Vitest tests.
 */
export function runStartTransactionCases(name: string, uniqueDbName: () => string): void {
  test(`${name}: with a server kind cached, one readwrite transaction reads and writes the resend's attempt before fetch`, async () => {
    const dbName = uniqueDbName();
    const entry = await seed(dbName, "degraded");
    const log: Happening[] = [];
    const network = trap(log);
    const stop = recordTransactions(log);
    const client = createOutboxClient({
      url: "http://127.0.0.1:9/agent",
      namespace: NAMESPACE,
      dbName,
      requestPersistence: false,
      deps: { fetch: network.fetch },
    });
    try {
      void client.start().catch(() => {});
      await network.reached;
      const untilResume = log.slice(0, log.findIndex((happening) => happening.type === "fetch") + 1);
      expect(untilResume).toEqual([
        { type: "transaction", stores: "entries+meta", mode: "readwrite" },
        { type: "complete", stores: "entries+meta" },
        { type: "fetch", what: "resume" },
      ]);
    } finally {
      stop();
      client.dispose();
    }
    // The attempt was written once, over the revision read, with the body it had.
    expect(await stored(dbName, entry.key)).toMatchObject({
      state: EntryState.sending,
      attempts: 2,
      revision: 1,
      body: entry.body,
    });
    expect(network.resumes()).toBe(1);
  });

  test(`${name}: without a cached server kind, nothing is sent before capabilities answer, and the attempt is written once`, async () => {
    const dbName = uniqueDbName();
    const entry = await seed(dbName, undefined);
    const log: Happening[] = [];
    const network = trap(log);
    const stop = recordTransactions(log);
    const client = createOutboxClient({
      url: "http://127.0.0.1:9/agent",
      namespace: NAMESPACE,
      dbName,
      requestPersistence: false,
      deps: { fetch: network.fetch },
    });
    try {
      await client.start();
      await network.reached;
      const fetches = log.filter((happening) => happening.type === "fetch");
      expect(fetches.slice(0, 2)).toEqual([
        { type: "fetch", what: "capabilities" },
        { type: "fetch", what: "resume" },
      ]);
    } finally {
      stop();
      client.dispose();
    }
    expect(await stored(dbName, entry.key)).toMatchObject({ state: EntryState.sending, attempts: 2 });
    expect(network.resumes()).toBe(1);
  });
}
