// Benchmark 4: drain a queue of answers, in Chromium on real IndexedDB (the on-disk
// profile), against the mock server in its own process (its CPU and heap count for
// neither side).
//
// The queue: ANSWERS interrupts, one per thread. The mock agent keeps one open
// approval batch per thread and refuses a new turn until it is answered, so 1,000
// answers queued at once need 1,000 threads. Each answer is written by `answer()`
// while resumes are held, so every entry is stored in `sending`, its request never
// sent; then the page reloads. Timed, on the reloaded page:
//   ours     — a fresh client's `start()` until every entry is `applied`: opening
//              storage, loading the entries, the capabilities GET, every resume sent
//              (the engine does not limit concurrency; the browser's six connections
//              per host do), each stream read, validated, folded into its thread, and
//              every state change written with strict durability;
//   baseline — the same resume requests (URL, headers, body, captured from the client
//              on its own fresh server) sent with plain fetch, all at once (so the
//              same six connections), each response read to its end. It writes
//              nothing: the SDK's durable writes are part of what the ratio shows.
// Each of BENCH_DRAIN_SAMPLES samples measures both, in alternating order, each on a
// freshly reset server and a fresh database. Heap: the page's used JS heap (`Runtime.getHeapUsage`
// over CDP) sampled every 10 ms, its peak above the value after a forced GC.
// Target: time ≤ 1.3× plain fetch, ≤ 30 MB extra heap.
import type { CapturedRequest, DrainRequest, DrainSample } from "./pages/drain-page.ts";
import { gotoReady, openBenchPage } from "./support/browser-page.ts";
import { startMockProcess } from "./support/mock-process.ts";
import { envInt, figure, heading, mb, median, ms, spread, target, times } from "./support/report.ts";

const ANSWERS = envInt("BENCH_DRAIN_ANSWERS", 1_000);
const SAMPLES = envInt("BENCH_DRAIN_SAMPLES", 5);
const PREPARE_CONCURRENCY = envInt("BENCH_DRAIN_PREPARE_CONCURRENCY", 25);

type Api = {
  prepare: (r: DrainRequest) => Promise<CapturedRequest[]>;
  ours: (r: DrainRequest) => Promise<DrainSample>;
  baseline: (requests: readonly CapturedRequest[]) => Promise<DrainSample>;
};

const bench = await openBenchPage("drain-page.ts");
const cdp = await bench.context.newCDPSession(bench.page);

interface Measured {
  readonly ms: number;
  readonly heap: number;
}

/** Runs the timed page call while sampling the page's heap from outside. */
async function withHeap(timed: () => Promise<DrainSample>): Promise<Measured> {
  await cdp.send("HeapProfiler.collectGarbage");
  const used = async () => (await cdp.send("Runtime.getHeapUsage")).usedSize;
  const base = await used();
  let peak = base;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, await used());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const { ms } = await timed();
    return { ms, heap: Math.max(peak, await used()) - base };
  } finally {
    done = true;
    await sampling;
  }
}
try {
  const samples = { ours: [] as Measured[], baseline: [] as Measured[] };
  // One server process for the whole benchmark, reset before each side: every
  // side starts from an empty server, without a process start between samples.
  const mock = await startMockProcess({ toolDurationMs: 0 });
  try {
    for (let index = 0; index < SAMPLES; index += 1) {
      const order = index % 2 === 0 ? (["baseline", "ours"] as const) : (["ours", "baseline"] as const);
      for (const side of order) {
        const reset = await fetch(`${mock.url}/__reset`, { method: "POST" });
        if (!reset.ok) throw new Error(`the mock server refused a reset: ${reset.status}`);
        const request: DrainRequest = {
          agentUrl: `${mock.url}/agent`,
          dbName: `bench-drain-${index}-${side}`,
          answers: ANSWERS,
          prepareConcurrency: PREPARE_CONCURRENCY,
        };
        await gotoReady(bench.page, bench.url);
        const captured = await bench.page.evaluate(
          (r) => (globalThis as unknown as { benchDrain: Api }).benchDrain.prepare(r),
          request,
        );
        if (captured.length !== ANSWERS) throw new Error(`queued ${captured.length} of ${ANSWERS}`);
        await gotoReady(bench.page, bench.url);
        const sample = await withHeap(() =>
          side === "ours"
            ? bench.page.evaluate(
                (r) => (globalThis as unknown as { benchDrain: Api }).benchDrain.ours(r),
                request,
              )
            : bench.page.evaluate(
                (requests) => (globalThis as unknown as { benchDrain: Api }).benchDrain.baseline(requests),
                captured,
              ),
        );
        samples[side].push(sample);
      }
    }
  } finally {
    await mock.close();
  }
  heading(
    `4. Drain (Chromium ${bench.version}, IndexedDB on disk, mock server in its own process)`,
    `${ANSWERS.toLocaleString("en")} queued answers over ${ANSWERS.toLocaleString("en")} threads, all sent at once; ` +
      `${SAMPLES} samples in alternating order; median (range)`,
  );
  figure(
    "ours: start() → all applied",
    `${spread(
      samples.ours.map((s) => s.ms),
      ms,
    )}`,
  );
  figure(
    "  peak heap above start",
    spread(
      samples.ours.map((s) => s.heap),
      mb,
    ),
  );
  figure(
    "plain fetch, same requests, read to the end",
    spread(
      samples.baseline.map((s) => s.ms),
      ms,
    ),
  );
  figure(
    "  peak heap above start",
    spread(
      samples.baseline.map((s) => s.heap),
      mb,
    ),
  );
  const ratios = samples.ours.map((s, i) => s.ms / (samples.baseline[i]?.ms ?? Number.NaN));
  target("time ours / plain fetch", spread(ratios, times), "≤ 1.3×", median(ratios) <= 1.3);
  const extras = samples.ours.map((s, i) => s.heap - (samples.baseline[i]?.heap ?? Number.NaN));
  target("extra peak heap", spread(extras, mb), "≤ 30 MB", median(extras) <= 30 * 1024 * 1024);
} finally {
  await bench.close();
}
