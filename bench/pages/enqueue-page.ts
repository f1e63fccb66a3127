// Page side of benchmark 1 (enqueue to durable). Bundled by bench/support/browser-page.ts.
import { openDB } from "idb";
import { createOutboxClient } from "../../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../../packages/core/src/client/deps.ts";
import type { OutboxEntry } from "../../packages/core/src/outbox/entry.ts";
import { IdbStore } from "../../packages/core/src/outbox/idb-store.ts";

export interface EnqueueSamples {
  /** `answer()` until it resolved, i.e. until its IndexedDB transaction completed. */
  readonly ours: number[];
  /** One `put` of the same record, strict durability (what the outbox uses). */
  readonly raw: number[];
  /** The same `put` with relaxed durability (Chromium's default), for reference. */
  readonly rawRelaxed: number[];
  /** The outbox store's own check-and-insert transaction alone, to split the gap. */
  readonly storeOnly: number[];
}

export interface EnqueueRequest {
  readonly agentUrl: string;
  readonly samples: number;
  readonly warmup: number;
}

/**
 * Resume requests are held (never sent): the measured `answer()` is then followed
 * by exactly one more write (the entry's `sending` state) and no network or
 * delivery writes, so nothing of one sample overlaps the next. The promise that
 * the hold was reached says that follow-up write has committed.
 */
function holdingFetch(): { fetch: FetchLike; held: () => Promise<void> } {
  let reached: (() => void) | undefined;
  return {
    fetch: (input, init) => {
      if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
      reached?.();
      return new Promise<Response>(() => {});
    },
    held: () =>
      new Promise<void>((resolve) => {
        reached = resolve;
      }),
  };
}

async function run(request: EnqueueRequest): Promise<EnqueueSamples> {
  for (const name of ["bench-enqueue", "bench-enqueue-raw", "bench-enqueue-store"]) {
    await new Promise((resolve) => {
      const deletion = indexedDB.deleteDatabase(name);
      deletion.onsuccess = deletion.onerror = deletion.onblocked = resolve;
    });
  }
  const hold = holdingFetch();
  const client = createOutboxClient({
    url: request.agentUrl,
    namespace: "bench",
    dbName: "bench-enqueue",
    deps: { fetch: hold.fetch },
  });
  await client.start();
  // The baseline database has the outbox's object store and indexes: a put there
  // does the same index maintenance an outbox insert does.
  const raw = await openDB("bench-enqueue-raw", 1, {
    upgrade(db) {
      const entries = db.createObjectStore("entries", { keyPath: "key" });
      entries.createIndex("by-namespace", "namespace");
      entries.createIndex("by-interrupt", ["namespace", "threadId", "interruptId"]);
    },
  });
  const rawPut = async (record: OutboxEntry, durability: IDBTransactionDurability) => {
    const started = performance.now();
    const tx = raw.transaction("entries", "readwrite", { durability });
    await tx.store.put(record);
    await tx.done;
    return performance.now() - started;
  };

  const store = await IdbStore.open({ dbName: "bench-enqueue-store" });
  const storeInsert = async (record: OutboxEntry) => {
    const started = performance.now();
    await store.putIfAbsentForInterrupt(record);
    return performance.now() - started;
  };

  const samples: EnqueueSamples = { ours: [], raw: [], rawRelaxed: [], storeOnly: [] };
  let previous: OutboxEntry | undefined;
  for (let index = 0; index < request.warmup + request.samples; index += 1) {
    const threadId = `t-${index}`;
    const thread = client.thread(threadId);
    await thread.send("please deploy to prod");
    const interrupt = thread.store.getState().pendingInterrupts[0];
    if (!interrupt) throw new Error("the agent did not ask for approval");
    // The first write after a streamed run costs more than the next one (a raw put
    // there takes about twice as long). Which of the two goes first alternates, so
    // neither side always gets that slot. When the raw put goes first, its record is
    // the previous sample's entry under a fresh key: the same shape and size.
    const strictFirst =
      index % 2 === 1 && previous !== undefined
        ? await rawPut({ ...previous, key: crypto.randomUUID() }, "strict")
        : undefined;
    const held = hold.held();

    const started = performance.now();
    const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
    const ours = performance.now() - started;
    await held;
    previous = entry;

    const strict = strictFirst ?? (await rawPut({ ...entry, key: crypto.randomUUID() }, "strict"));
    const relaxed = await rawPut({ ...entry, key: crypto.randomUUID() }, "relaxed");
    const storeOnly = await storeInsert({ ...entry, key: crypto.randomUUID() });
    if (index < request.warmup) continue;
    samples.storeOnly.push(storeOnly);
    samples.ours.push(ours);
    samples.raw.push(strict);
    samples.rawRelaxed.push(relaxed);
  }
  client.dispose();
  raw.close();
  store.close();
  return samples;
}

Object.assign(globalThis, { benchEnqueue: run, benchReady: true });
