// Benchmark 1: enqueue to durable, in real Chromium on an on-disk profile.
// Timed: `client.answer()` from the call until it resolves. It resolves once the
// entry's IndexedDB transaction (strict durability) has completed, so the figure is
// validation against the interrupt's schema + building the resume body + the
// check-and-insert transaction + handing the entry to the engine. The interrupt is
// fetched from the mock server beforehand and is not timed; the resume request is
// held in the page (never sent) so delivery cannot overlap the next slot.
// Baseline: one `idb` put of the same record (about 2 kB: the answer edits the
// tool's arguments) into an object store with the same indexes, strict durability
// like the outbox. Relaxed durability is printed for reference (Chromium's default,
// it skips the flush), and so is the outbox store's own transaction alone (an index
// read for a live answer to the same interrupt, then the insert).
// Fairness: the profile is on disk (strict really flushes), the page is
// cross-origin isolated (5 µs timers), the four kinds rotate through the slots after
// each streamed run, and each slot starts after an idle gap.
// Stored: every database (the client's and the baselines') first holds 0, then
// 10,000 applied answers (BENCH_ENQUEUE_STORED), which the client has read before
// the first sample; an enqueue should cost the same over a full store.
// Target: p50 ≤ 1.2× the raw strict put at each size, p99 ≤ 8 ms, and answer()'s
// p50 with 10,000 stored ≤ 1.2× its p50 with none (flat); each over BENCH_RUNS runs.
import { startMockServer } from "@agui-outbox/mock-server";
import type { EnqueueRequest, EnqueueRun } from "./pages/enqueue-page.ts";
import { openBenchPage } from "./support/browser-page.ts";
import { benchPort, PortOffset } from "./support/ports.ts";
import {
  envInt,
  figure,
  heading,
  median,
  ms,
  percentile,
  RUNS,
  spread,
  target,
  times,
} from "./support/report.ts";

const SAMPLES = envInt("BENCH_ENQUEUE_SAMPLES", 80);
const WARMUP = envInt("BENCH_ENQUEUE_WARMUP", 5);
const GAP_MS = envInt("BENCH_ENQUEUE_GAP_MS", 4);
const RECORD_BYTES = envInt("BENCH_ENQUEUE_RECORD_BYTES", 2_048);
const SIZES = [0, envInt("BENCH_ENQUEUE_STORED", 10_000)];

const server = await startMockServer({ port: benchPort(PortOffset.mock) });
const bench = await openBenchPage("enqueue-page.ts");
try {
  const bySize: EnqueueRun[][] = [];
  for (const stored of SIZES) {
    const request: EnqueueRequest = {
      agentUrl: `${server.url}/agent`,
      runs: RUNS,
      samples: SAMPLES,
      warmup: WARMUP,
      gapMs: GAP_MS,
      recordBytes: RECORD_BYTES,
      stored,
    };
    bySize.push(
      await bench.page.evaluate(
        (input) =>
          (
            globalThis as unknown as { benchEnqueue: (r: EnqueueRequest) => Promise<EnqueueRun[]> }
          ).benchEnqueue(input),
        request,
      ),
    );
  }
  heading(
    "1. Enqueue to durable (Chromium, on-disk profile, cross-origin isolated)",
    `Chromium ${bench.version}, ${RUNS} runs × ${SAMPLES} samples (after ${WARMUP} warm-up), ` +
      `${bySize[0]?.[0]?.recordBytes ?? 0}-byte record, rotated slots, ${GAP_MS} ms idle before each; median (range) over runs`,
  );
  const rows = [
    ["answer() until committed", "ours"],
    ["raw idb put, strict", "raw"],
    ["raw idb put, relaxed (ref.)", "rawRelaxed"],
    ["  IdbStore check-and-insert", "storeOnly"],
  ] as const;
  for (const [index, stored] of SIZES.entries()) {
    const runs = bySize[index] ?? [];
    const at = `${stored.toLocaleString("en")} stored`;
    for (const [name, key] of rows) {
      const p50 = spread(
        runs.map((run) => median(run[key])),
        ms,
      );
      const p99 = spread(
        runs.map((run) => percentile(run[key], 99)),
        ms,
      );
      figure(`${name}, ${at}`, `p50 ${p50}   p99 ${p99}`);
    }
    const ratios = runs.map((run) => median(run.ours) / median(run.raw));
    target(`p50 answer()/raw strict, ${at}`, spread(ratios, times), "≤ 1.2×", median(ratios) <= 1.2);
    const p99s = runs.map((run) => percentile(run.ours, 99));
    target(`answer() p99, ${at}`, spread(p99s, ms), "≤ 8 ms", median(p99s) <= 8);
  }
  // Runs of the two sizes are paired by their order: run i at 10,000 over run i at 0.
  const [empty = [], full = []] = bySize;
  const growth = full.map((run, index) => median(run.ours) / median(empty[index]?.ours ?? []));
  target(
    `answer() p50, ${(SIZES[1] ?? 0).toLocaleString("en")} stored / none`,
    spread(growth, times),
    "≤ 1.2×",
    median(growth) <= 1.2,
  );
} finally {
  await bench.close();
  await server.close();
}
