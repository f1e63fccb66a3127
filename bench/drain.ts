// Benchmark 4: drain a queue of answers (Node, fake-indexeddb; the mock server runs
// in its own process so its time and heap count for neither side).
//
// The queue: ANSWERS interrupts, one per thread. The mock agent keeps one open
// approval batch per thread and refuses a new turn until it is answered, so 1,000
// answers queued at once need 1,000 threads (the issue says 100 threads; 10 open
// answers per thread cannot be queued against this agent). Each answer is written
// by `answer()` while resumes are held, so every entry is stored in `sending`, its
// request never sent; then the page "reloads".
//   ours     — timed from a fresh client's `start()` until every entry is `applied`:
//              opening storage, loading the entries, the capabilities GET, then all
//              resumes at once (the engine does not limit concurrency), each stream
//              read, validated, folded into its thread, and every state change
//              written durably (claim acknowledged, final verdict).
//   baseline — the same resume requests (URL, headers, body captured from the
//              client on another fresh server) sent with plain fetch, all at once,
//              each response read to its end.
// Completion is checked every 10 ms (not on every change, which would be quadratic).
// Peak heap: heap used sampled every 5 ms (and once at the end), minus heap used
// after a forced GC before the timed part (run with --expose-gc; without it the
// baseline is taken without a GC). Target: time ≤ 1.5×, < 50 MB extra heap.

import { getHeapStatistics } from "node:v8";
import type { OutboxClient } from "../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../packages/core/src/client/deps.ts";
import { isFinalState } from "../packages/core/src/outbox/entry.ts";
import { startMockProcess } from "./support/mock-process.ts";
import {
  askForDeployment,
  IDBFactory,
  nodeClient,
  pollEntries,
  startDurable,
} from "./support/node-client.ts";
import { envInt, figure, heading, mb, ms, target } from "./support/report.ts";

const ANSWERS = envInt("BENCH_DRAIN_ANSWERS", 1_000);
/** How many threads are asked for their interrupt at once while the queue is built. */
const PREPARE_CONCURRENCY = envInt("BENCH_DRAIN_PREPARE_CONCURRENCY", 25);

interface CapturedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
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

async function inBatches(count: number, size: number, task: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += size) {
    const batch: Promise<void>[] = [];
    for (let index = start; index < Math.min(count, start + size); index += 1) batch.push(task(index));
    await Promise.all(batch);
  }
}

/** Builds the queue: ANSWERS answered interrupts whose resumes were held. */
async function queueAnswers(agentUrl: string, indexedDB: IDBFactory): Promise<CapturedRequest[]> {
  const captured: CapturedRequest[] = [];
  const client: OutboxClient = nodeClient(agentUrl, indexedDB, { deps: { fetch: holdingFetch(captured) } });
  await startDurable(client);
  await inBatches(ANSWERS, PREPARE_CONCURRENCY, async (index) => {
    const threadId = `t-${index}`;
    const interrupt = await askForDeployment(client, threadId);
    await client.answer({ threadId, interruptId: interrupt.id, approved: true });
  });
  // Every entry is stored in `sending` once its resume reached the hold.
  while (captured.length < ANSWERS) await new Promise((resolve) => setTimeout(resolve, 10));
  client.dispose();
  return captured;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Runs `work`, sampling heapUsed; returns the time and the peak above the start. */
async function measure(work: () => Promise<void>): Promise<{ ms: number; heap: number }> {
  gc?.();
  // getHeapStatistics, not process.memoryUsage(): the latter also walks RSS and
  // costs enough to show up in a profile of the timed part.
  const heapUsed = () => getHeapStatistics().used_heap_size;
  const base = heapUsed();
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, heapUsed());
  };
  const timer = setInterval(sample, 5);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const elapsed = performance.now() - started;
  sample();
  return { ms: elapsed, heap: peak - base };
}

async function baseline(): Promise<{ ms: number; heap: number }> {
  const mock = await startMockProcess({ toolDurationMs: 0 });
  try {
    const requests = await queueAnswers(`${mock.url}/agent`, new IDBFactory());
    return await measure(async () => {
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
  } finally {
    await mock.close();
  }
}

async function ours(): Promise<{ ms: number; heap: number }> {
  const mock = await startMockProcess({ toolDurationMs: 0 });
  const indexedDB = new IDBFactory();
  let client: OutboxClient | undefined;
  try {
    await queueAnswers(`${mock.url}/agent`, indexedDB);
    return await measure(async () => {
      client = nodeClient(`${mock.url}/agent`, indexedDB);
      await startDurable(client);
      await pollEntries(client, (entries) => {
        const applied = entries.filter((entry) => entry.state === "applied").length;
        const final = entries.filter((entry) => isFinalState(entry.state));
        if (entries.length === ANSWERS && final.length === ANSWERS && applied !== ANSWERS) {
          throw new Error(`only ${applied} of ${ANSWERS} answers were applied`);
        }
        return entries.length === ANSWERS && applied === ANSWERS;
      });
    });
  } finally {
    client?.dispose();
    await mock.close();
  }
}

const plain = await baseline();
const mine = await ours();
heading(
  "4. Drain (Node, fake-indexeddb, mock server in its own process)",
  `${ANSWERS.toLocaleString("en")} queued answers over ${ANSWERS.toLocaleString("en")} threads, all sent at once; ${gc ? "GC before each" : "no --expose-gc"}`,
);
figure("ours: start() → all applied", `${ms(mine.ms)}   peak heap +${mb(mine.heap)}`);
figure("plain fetch, same requests, read to the end", `${ms(plain.ms)}   peak heap +${mb(plain.heap)}`);
const ratio = mine.ms / plain.ms;
target("time ours / plain fetch", `${ratio.toFixed(2)}×`, "≤ 1.5×", ratio <= 1.5);
const extra = mine.heap - plain.heap;
target("extra peak heap", mb(extra), "< 50 MB", extra < 50 * 1024 * 1024);
