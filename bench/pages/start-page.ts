// Page side of the start benchmark. Bundled by bench/support/browser-page.ts, opened
// on an on-disk profile: a reloaded tab's `createOutboxClient()` + `start()` over a
// database that holds `stored` entries, all settled but one queued answer.
import type { OutboxClient } from "../../packages/core/src/client/client-types.ts";
import { createOutboxClient } from "../../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../../packages/core/src/client/deps.ts";
import { EntryState } from "../../packages/core/src/outbox/entry.ts";
import { IdbStore } from "../../packages/core/src/outbox/idb-store.ts";
import { seedEntries } from "./seed-entries.ts";

export interface StartRequest {
  readonly agentUrl: string;
  readonly sizes: readonly number[];
  readonly samples: number;
  /** Size of each stored record's body, as an answer's exact request bytes. */
  readonly bodyBytes: number;
  /** Idle time before each timed start. */
  readonly gapMs: number;
}

export interface StartRun {
  readonly stored: number;
  /** `createOutboxClient()` until `start()` resolved. */
  readonly start: number[];
  /** `IdbStore.listByNamespace` alone: what reading every entry costs. */
  readonly readAll: number[];
  /** The open entries alone, through the state index: what a start reads. */
  readonly readOpen: number[];
}

const NAMESPACE = "bench";

/** Resume requests are held: the recovered answer never reaches the mock server. */
const holdingFetch: FetchLike = (input, init) =>
  new Headers(init?.headers).has("idempotency-key") ? new Promise<Response>(() => {}) : fetch(input, init);

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deleteDatabase(name: string): Promise<void> {
  await new Promise((resolve) => {
    const deletion = indexedDB.deleteDatabase(name);
    deletion.onsuccess = deletion.onerror = deletion.onblocked = resolve;
  });
}

/** `stored - 1` settled entries and one queued answer, written in one transaction. */
async function seed(dbName: string, stored: number, bodyBytes: number): Promise<void> {
  (await IdbStore.open({ dbName })).close();
  await seedEntries(dbName, { namespace: NAMESPACE, count: stored, bodyBytes, lastState: EntryState.queued });
}

/**
 * The settled entries are read after start() resolves. A reloaded page's read ends with it; here
 * the clients share one page, so each waits for its read before the next start or reference read.
 */
function settledRead(client: OutboxClient, stored: number): Promise<void> {
  return new Promise((resolve) => {
    const landed = () => client.outbox.getState().entries.length >= stored;
    if (landed()) return resolve();
    const stop = client.outbox.subscribe(() => {
      if (!landed()) return;
      stop();
      resolve();
    });
  });
}

async function oneSize(request: StartRequest, stored: number): Promise<StartRun> {
  const dbName = `bench-start-${stored}`;
  await deleteDatabase(dbName);
  await seed(dbName, stored, request.bodyBytes);
  const options = { url: request.agentUrl, namespace: NAMESPACE, dbName, deps: { fetch: holdingFetch } };
  // A first start caches the server kind, as the page before the reload did.
  const warm = createOutboxClient(options);
  await warm.start();
  await settledRead(warm, stored);
  warm.dispose();
  const run: StartRun = { stored, start: [], readAll: [], readOpen: [] };
  for (let sample = 0; sample < request.samples; sample += 1) {
    // A reload starts on a fresh heap: let the last sample's garbage go before timing.
    await idle(request.gapMs);
    const started = performance.now();
    const client = createOutboxClient(options);
    await client.start();
    run.start.push(performance.now() - started);
    await settledRead(client, stored);
    client.dispose();
  }
  // The references come after the starts: their garbage (every entry read) falls in no start.
  const store = await IdbStore.open({ dbName });
  for (let sample = 0; sample < request.samples; sample += 1) {
    const reading = performance.now();
    await store.listByNamespace(NAMESPACE);
    run.readAll.push(performance.now() - reading);
    const readingOpen = performance.now();
    await store.listByNamespace(NAMESPACE, "open");
    run.readOpen.push(performance.now() - readingOpen);
  }
  store.close();
  await deleteDatabase(dbName);
  return run;
}

async function run(request: StartRequest): Promise<StartRun[]> {
  const runs: StartRun[] = [];
  for (const stored of request.sizes) runs.push(await oneSize(request, stored));
  return runs;
}

Object.assign(globalThis, { benchStart: run, benchReady: true });
