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
// The queue is built once through the client (`thread.send` + `answer()`, not
// timed); the server's state is then snapshotted and the database kept as a seed.
// Each of BENCH_DRAIN_SAMPLES samples measures both sides, in alternating order, each
// on a fresh server started from that snapshot and a fresh database holding an exact
// copy of the seed's records (same schema, version, keys and values). Heap: the page's used JS heap (`Runtime.getHeapUsage`
// over CDP) sampled every 10 ms, its peak above the value after a forced GC.
// Target: time ≤ 1.3× plain fetch, ≤ 30 MB extra heap.
import { writeFile } from "node:fs/promises";
import type { CapturedRequest, CloneRequest, DrainRequest, DrainSample } from "./pages/drain-page.ts";
import { gotoReady, openBenchPage } from "./support/browser-page.ts";
import { startMockProcess } from "./support/mock-process.ts";
import { envInt, figure, heading, mb, median, ms, spread, target, times } from "./support/report.ts";

const ANSWERS = envInt("BENCH_DRAIN_ANSWERS", 1_000);
const SAMPLES = envInt("BENCH_DRAIN_SAMPLES", 5);
const PREPARE_CONCURRENCY = envInt("BENCH_DRAIN_PREPARE_CONCURRENCY", 25);
/** BENCH_DRAIN_PROFILE=file.cpuprofile: a CPU profile of the first sample's `ours` (with BENCH_PAGE_MINIFY=0). */
const PROFILE = process.env.BENCH_DRAIN_PROFILE;

type Api = {
  prepare: (r: DrainRequest) => Promise<CapturedRequest[]>;
  cloneDatabase: (r: CloneRequest) => Promise<number>;
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
  let prepareMs = 0;
  // One server process for the whole benchmark; before each side it starts a fresh
  // server (same port) from the snapshot taken once the queue was built.
  const mock = await startMockProcess({ toolDurationMs: 0 });
  try {
    // The queue is built once, through the client (not timed): its database is the
    // seed, and the server's state with its 1,000 open approvals is snapshotted.
    // Every side then starts from an exact copy of both: the same records in a fresh
    // database, a fresh server process state, nothing built again.
    const prepareStarted = performance.now();
    await gotoReady(bench.page, bench.url);
    const seed: DrainRequest = {
      agentUrl: `${mock.url}/agent`,
      dbName: "bench-drain-seed",
      answers: ANSWERS,
      prepareConcurrency: PREPARE_CONCURRENCY,
    };
    const captured = await bench.page.evaluate(
      (r) => (globalThis as unknown as { benchDrain: Api }).benchDrain.prepare(r),
      seed,
    );
    if (captured.length !== ANSWERS) throw new Error(`queued ${captured.length} of ${ANSWERS}`);
    await mock.snapshot();
    await gotoReady(bench.page, bench.url);
    prepareMs = performance.now() - prepareStarted;
    for (let index = 0; index < SAMPLES; index += 1) {
      const order = index % 2 === 0 ? (["baseline", "ours"] as const) : (["ours", "baseline"] as const);
      for (const side of order) {
        await mock.restore();
        const request: DrainRequest = { ...seed, dbName: `bench-drain-${index}-${side}` };
        await gotoReady(bench.page, bench.url);
        const copied = await bench.page.evaluate(
          (r) => (globalThis as unknown as { benchDrain: Api }).benchDrain.cloneDatabase(r),
          { from: seed.dbName, to: request.dbName },
        );
        if (copied < ANSWERS) throw new Error(`the seed copy holds ${copied} records for ${ANSWERS} answers`);
        await gotoReady(bench.page, bench.url);
        const profiling = PROFILE !== undefined && side === "ours" && samples.ours.length === 0;
        if (profiling) {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
          await cdp.send("Profiler.start");
        }
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
        if (profiling) {
          const { profile } = await cdp.send("Profiler.stop");
          await writeFile(PROFILE, JSON.stringify(profile));
        }
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
  figure("not timed: the queue built once through the client", ms(prepareMs));
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
  // The one baseline that does less durable work than the path it is compared with.
  console.log(
    "     the baseline writes nothing; ours also writes every entry's `sending`, claim and verdict (strict durability)",
  );
  const extras = samples.ours.map((s, i) => s.heap - (samples.baseline[i]?.heap ?? Number.NaN));
  target("extra peak heap", spread(extras, mb), "≤ 30 MB", median(extras) <= 30 * 1024 * 1024);
} finally {
  await bench.close();
}
