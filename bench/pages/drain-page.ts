// Page side of benchmark 4 (drain in Chromium, real IndexedDB on the on-disk
// profile). Bundled by bench/support/browser-page.ts. The page is reloaded between
// building the queue and draining it, as a person's tab would be.
import { createOutboxClient } from "../../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../../packages/core/src/client/deps.ts";
import { isFinalState } from "../../packages/core/src/outbox/entry.ts";

export interface CapturedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface DrainRequest {
  readonly agentUrl: string;
  readonly dbName: string;
  readonly answers: number;
  readonly prepareConcurrency: number;
}

export interface CloneRequest {
  readonly from: string;
  readonly to: string;
}

export interface DrainSample {
  readonly ms: number;
}

/** Holds every resume (never sent) and keeps a copy of it. */
function holdingFetch(captured: CapturedRequest[]): FetchLike {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has("idempotency-key")) return fetch(input, init);
    captured.push({
      url: input,
      method: init?.method ?? "GET",
      headers: Object.fromEntries(headers.entries()),
      body: typeof init?.body === "string" ? init.body : "",
    });
    return new Promise<Response>(() => {});
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Not timed: `answers` answered interrupts whose resumes were held, stored in `sending`. */
async function prepare(request: DrainRequest): Promise<CapturedRequest[]> {
  const captured: CapturedRequest[] = [];
  const client = createOutboxClient({
    url: request.agentUrl,
    namespace: "bench",
    dbName: request.dbName,
    deps: { fetch: holdingFetch(captured) },
  });
  await client.start();
  for (let start = 0; start < request.answers; start += request.prepareConcurrency) {
    const batch: Promise<void>[] = [];
    for (let index = start; index < Math.min(request.answers, start + request.prepareConcurrency); index++) {
      batch.push(
        (async () => {
          const threadId = `t-${index}`;
          const thread = client.thread(threadId);
          await thread.send("please deploy to prod");
          const interrupt = thread.store.getState().pendingInterrupts[0];
          if (!interrupt) throw new Error("the agent did not ask for approval");
          await client.answer({ threadId, interruptId: interrupt.id, approved: true });
        })(),
      );
    }
    await Promise.all(batch);
  }
  while (captured.length < request.answers) await sleep(10);
  client.dispose();
  return captured;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * Not timed: copies database `from` (schema, version and every record) into a fresh
 * database `to`, in one transaction. The drain builds its queue once, through the
 * client, and each sample starts from an exact copy of it; returns the records copied.
 */
async function cloneDatabase(request: CloneRequest): Promise<number> {
  const source = await done(indexedDB.open(request.from));
  const names = [...source.objectStoreNames];
  const read = source.transaction(names, "readonly");
  const stores = await Promise.all(
    names.map(async (name) => {
      const store = read.objectStore(name);
      const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
      return {
        name,
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
        indexes: [...store.indexNames].map((indexName) => {
          const index = store.index(indexName);
          return {
            name: indexName,
            keyPath: index.keyPath,
            unique: index.unique,
            multiEntry: index.multiEntry,
          };
        }),
        keys,
        values,
      };
    }),
  );
  const version = source.version;
  source.close();
  await done(indexedDB.deleteDatabase(request.to));
  const opening = indexedDB.open(request.to, version);
  opening.onupgradeneeded = () => {
    for (const store of stores) {
      const created = opening.result.createObjectStore(store.name, {
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
      });
      for (const index of store.indexes) {
        created.createIndex(index.name, index.keyPath, {
          unique: index.unique,
          multiEntry: index.multiEntry,
        });
      }
    }
  };
  const target = await done(opening);
  const write = target.transaction(names, "readwrite", { durability: "strict" });
  let copied = 0;
  for (const store of stores) {
    const into = write.objectStore(store.name);
    store.values.forEach((value, index) => {
      into.put(value, store.keyPath === null ? store.keys[index] : undefined);
      copied += 1;
    });
  }
  await committed(write);
  target.close();
  return copied;
}

/** Runs `work` and returns its duration (the heap is sampled from outside, over CDP). */
async function measure(work: () => Promise<void>): Promise<DrainSample> {
  const started = performance.now();
  await work();
  return { ms: performance.now() - started };
}

/** Timed: a fresh client's `start()` until every entry is `applied`. */
function ours(request: DrainRequest): Promise<DrainSample> {
  return measure(async () => {
    const client = createOutboxClient({ url: request.agentUrl, namespace: "bench", dbName: request.dbName });
    try {
      await client.start();
      // Checked every 10 ms, not on every change (that would be the benchmark's own
      // quadratic cost, charged to the client).
      for (;;) {
        const { entries } = client.outbox.getState();
        const applied = entries.filter((entry) => entry.state === "applied").length;
        if (entries.length === request.answers && applied === request.answers) return;
        if (entries.length === request.answers && entries.every((entry) => isFinalState(entry.state))) {
          throw new Error(`only ${applied} of ${request.answers} answers were applied`);
        }
        await sleep(10);
      }
    } finally {
      client.dispose();
    }
  });
}

/** Timed: the same resume requests with plain fetch, all at once, each read to its end. */
function baseline(requests: readonly CapturedRequest[]): Promise<DrainSample> {
  return measure(async () => {
    await Promise.all(
      requests.map(async (request) => {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        const text = await response.text();
        if (!text.includes("RUN_FINISHED")) throw new Error("a plain resume did not finish its run");
      }),
    );
  });
}

Object.assign(globalThis, { benchDrain: { prepare, cloneDatabase, ours, baseline }, benchReady: true });
