// Benchmark 1: enqueue to durable, in real Chromium.
// Timed: `client.answer()` from the call until it resolves. It resolves once the
// entry's IndexedDB transaction (strict durability) has completed, so the figure is
// validation against the interrupt's schema + building the resume body + the
// check-and-insert transaction + handing the entry to the engine. The interrupt is
// fetched from the mock server beforehand and is not timed; the resume request is
// held in the page (never sent) so delivery cannot overlap the next sample.
// Baseline: one `idb` put of the same record into an object store with the same
// indexes, strict durability like the outbox. Relaxed durability is printed for
// reference (it is Chromium's default and skips the flush the outbox asks for), and
// so is the outbox store's own transaction alone (an index read for a live answer to
// the same interrupt, then the insert), which splits the gap between storage and the
// rest of `answer()`.
// Target: p50 ≤ 1.5× raw, p99 ≤ 15 ms.
import { startMockServer } from "@agui-outbox/mock-server";
import type { EnqueueRequest, EnqueueSamples } from "./pages/enqueue-page.ts";
import { openBenchPage } from "./support/browser-page.ts";
import { envInt, figure, heading, median, ms, percentile, target } from "./support/report.ts";

const SAMPLES = envInt("BENCH_ENQUEUE_SAMPLES", 300);
const WARMUP = envInt("BENCH_ENQUEUE_WARMUP", 10);

const server = await startMockServer({ port: 0 });
const bench = await openBenchPage("enqueue-page.ts");
try {
  const request: EnqueueRequest = { agentUrl: `${server.url}/agent`, samples: SAMPLES, warmup: WARMUP };
  const samples = await bench.page.evaluate(
    (input) =>
      (
        globalThis as unknown as { benchEnqueue: (r: EnqueueRequest) => Promise<EnqueueSamples> }
      ).benchEnqueue(input),
    request,
  );
  const version = bench.browser.version();
  heading(
    "1. Enqueue to durable (Chromium)",
    `Chromium ${version}, ${SAMPLES} samples after ${WARMUP} warm-up, interleaved answer() / raw put`,
  );
  const rows = [
    ["answer() until committed", samples.ours],
    ["raw idb put, strict durability", samples.raw],
    ["raw idb put, relaxed (reference)", samples.rawRelaxed],
    ["  IdbStore check-and-insert alone", samples.storeOnly],
  ] as const;
  for (const [name, values] of rows) {
    figure(name, `p50 ${ms(median(values))}   p99 ${ms(percentile(values, 99))}`);
  }
  const ratio = median(samples.ours) / median(samples.raw);
  target("p50 ratio answer() / raw put", `${ratio.toFixed(2)}×`, "≤ 1.5×", ratio <= 1.5);
  const p99 = percentile(samples.ours, 99);
  target("answer() p99", ms(p99), "≤ 15 ms", p99 <= 15);
} finally {
  await bench.close();
  await server.close();
}
