// Page side of benchmark 1 (enqueue to durable). Bundled by bench/support/browser-page.ts,
// opened on an on-disk profile in a cross-origin-isolated page (5 µs timers).
import { openDB } from "idb";
import { createOutboxClient } from "../../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../../packages/core/src/client/deps.ts";
import type { OutboxEntry } from "../../packages/core/src/outbox/entry.ts";
import { IdbStore } from "../../packages/core/src/outbox/idb-store.ts";
import { seedEntries } from "./seed-entries.ts";

export interface EnqueueRun {
  /** `answer()` until it resolved, i.e. until its IndexedDB transaction completed. */
  readonly ours: number[];
  /** One `put` of the same record, strict durability (what the outbox uses). */
  readonly raw: number[];
  /** The same `put` with relaxed durability (Chromium's default), for reference. */
  readonly rawRelaxed: number[];
  /** The outbox store's own check-and-insert transaction alone, to split the gap. */
  readonly storeOnly: number[];
  /** JSON length of the stored records, for the figure's header. */
  readonly recordBytes: number;
  /** Entries each database held before the first sample (applied answers). */
  readonly stored: number;
}

export interface EnqueueRequest {
  readonly agentUrl: string;
  readonly runs: number;
  readonly samples: number;
  readonly warmup: number;
  /** Idle time before each timed slot, so no slot inherits another's background work. */
  readonly gapMs: number;
  /** Size the stored record is padded to (the edited arguments carry the padding). */
  readonly recordBytes: number;
  /** Applied entries written into every database (the client's and the baselines') before timing. */
  readonly stored: number;
}

type Slot = "ours" | "raw" | "rawRelaxed" | "storeOnly";
const SLOTS: readonly Slot[] = ["ours", "raw", "rawRelaxed", "storeOnly"];

/**
 * Resume requests are held (never sent): the measured `answer()` is then followed
 * by exactly one more write (the entry's `sending` state) and no network or
 * delivery writes. The promise that the hold was reached says that follow-up write
 * has committed, so it never overlaps the next slot.
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

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deleteDatabase(name: string): Promise<void> {
  await new Promise((resolve) => {
    const deletion = indexedDB.deleteDatabase(name);
    deletion.onsuccess = deletion.onerror = deletion.onblocked = resolve;
  });
}

async function oneRun(request: EnqueueRequest, run: number): Promise<EnqueueRun> {
  const names = [`bench-enqueue-${run}`, `bench-enqueue-raw-${run}`, `bench-enqueue-store-${run}`] as const;
  for (const name of names) await deleteDatabase(name);
  const seed = { namespace: "bench", count: request.stored, bodyBytes: 1_024 };
  if (request.stored > 0) {
    (await IdbStore.open({ dbName: names[0] })).close();
    await seedEntries(names[0], seed);
  }
  const hold = holdingFetch();
  const client = createOutboxClient({
    url: request.agentUrl,
    namespace: "bench",
    dbName: names[0],
    deps: { fetch: hold.fetch },
  });
  await client.start();
  // The applied entries are read after start() resolves: let that read land before timing.
  await new Promise<void>((resolve) => {
    const landed = () => client.outbox.getState().entries.length >= request.stored;
    if (landed()) return resolve();
    const stop = client.outbox.subscribe(() => {
      if (!landed()) return;
      stop();
      resolve();
    });
  });
  // The baseline database has the outbox's object store and indexes: a put there
  // does the same index maintenance an outbox insert does.
  const raw = await openDB(names[1], 1, {
    upgrade(db) {
      const entries = db.createObjectStore("entries", { keyPath: "key" });
      entries.createIndex("by-namespace", "namespace");
      entries.createIndex("by-interrupt", ["namespace", "threadId", "interruptId"]);
      entries.createIndex("by-state", ["namespace", "state"]);
    },
  });
  const store = await IdbStore.open({ dbName: names[2] });
  if (request.stored > 0) {
    await seedEntries(names[1], seed);
    await seedEntries(names[2], seed);
  }

  const samples: EnqueueRun = {
    ours: [],
    raw: [],
    rawRelaxed: [],
    storeOnly: [],
    recordBytes: 0,
    stored: request.stored,
  };
  let padding = "";
  let template: OutboxEntry | undefined;
  let bytes = 0;
  for (let index = 0; index < request.warmup + request.samples; index += 1) {
    const threadId = `t-${request.stored}-${run}-${index}`;
    const thread = client.thread(threadId);
    await thread.send("please deploy to prod");
    const interrupt = thread.store.getState().pendingInterrupts[0];
    if (!interrupt) throw new Error("the agent did not ask for approval");
    const times = {} as Record<Slot, number>;
    // The slot right after a streamed run costs more than the next ones: each of the
    // four kinds takes every position in turn, with an idle gap before each.
    for (const slot of [...SLOTS.slice(index % 4), ...SLOTS.slice(0, index % 4)]) {
      await idle(request.gapMs);
      if (slot === "ours") {
        const held = hold.held();
        const started = performance.now();
        const entry = await client.answer({
          threadId,
          interruptId: interrupt.id,
          approved: true,
          editedArgs: { target: `prod${padding}` },
        });
        times.ours = performance.now() - started;
        await held;
        template = entry;
        continue;
      }
      // The baselines store the previous answer's record under a fresh key: the same
      // shape and size (the first sample has none yet and is a warm-up).
      const record = template && { ...template, key: crypto.randomUUID() };
      if (!record) {
        times[slot] = Number.NaN;
        continue;
      }
      const started = performance.now();
      if (slot === "storeOnly") {
        await store.putIfAbsentForInterrupt(record);
      } else {
        const tx = raw.transaction("entries", "readwrite", {
          durability: slot === "raw" ? "strict" : "relaxed",
        });
        await tx.store.put(record);
        await tx.done;
      }
      times[slot] = performance.now() - started;
    }
    if (template && padding === "") {
      // Pad once: the edited target appears in the decision and in the resume body.
      const size = JSON.stringify(template).length;
      padding = " ".repeat(Math.max(0, Math.floor((request.recordBytes - size) / 2)));
    }
    if (index < request.warmup) continue;
    bytes = template ? JSON.stringify(template).length : 0;
    for (const slot of SLOTS) samples[slot].push(times[slot]);
  }
  client.dispose();
  raw.close();
  store.close();
  for (const name of names) await deleteDatabase(name);
  return { ...samples, recordBytes: bytes };
}

async function run(request: EnqueueRequest): Promise<EnqueueRun[]> {
  const runs: EnqueueRun[] = [];
  for (let run = 0; run < request.runs; run += 1) runs.push(await oneRun(request, run));
  return runs;
}

Object.assign(globalThis, { benchEnqueue: run, benchReady: true });
