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

Object.assign(globalThis, { benchDrain: { prepare, ours, baseline }, benchReady: true });
