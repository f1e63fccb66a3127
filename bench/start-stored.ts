// Benchmark: a reloaded tab's start with many entries stored, in real Chromium on an
// on-disk profile. Timed: `createOutboxClient()` + `start()` until it resolves, over a
// database holding 1 or 10,000 entries (all settled but one queued answer, which the
// start recovers; its resume is held in the page, never sent). The server kind is
// cached by a first start, as after any earlier visit, so start() costs the storage
// read and one capabilities request to the mock server on localhost.
// Isolation: the starts share one page, so each waits for its settled read (after start)
// before the next, idles BENCH_START_GAP_MS first, and the references run after them all.
// References: `IdbStore.listByNamespace` alone, every entry and the open ones (what a
// start reads, through the [namespace, state] index).
// Target: start() p50 ≤ 50 ms with 10,000 stored.
import { startMockServer } from "@agui-outbox/mock-server";
import type { StartRequest, StartRun } from "./pages/start-page.ts";
import { openBenchPage } from "./support/browser-page.ts";
import { benchPort, PortOffset } from "./support/ports.ts";
import { envInt, figure, heading, median, ms, RUNS, spread, target } from "./support/report.ts";

const SAMPLES = envInt("BENCH_START_SAMPLES", 5);
const BODY_BYTES = envInt("BENCH_START_BODY_BYTES", 1_024);
const GAP_MS = envInt("BENCH_START_GAP_MS", 300);
const SIZES = [1, 10_000];

const server = await startMockServer({ port: benchPort(PortOffset.mock) });
const bench = await openBenchPage("start-page.ts");
try {
  const request: StartRequest = {
    agentUrl: `${server.url}/agent`,
    sizes: SIZES,
    samples: SAMPLES,
    bodyBytes: BODY_BYTES,
    gapMs: GAP_MS,
  };
  const runs: StartRun[][] = [];
  for (let run = 0; run < RUNS; run += 1) {
    runs.push(
      await bench.page.evaluate(
        (input) =>
          (globalThis as unknown as { benchStart: (r: StartRequest) => Promise<StartRun[]> }).benchStart(
            input,
          ),
        request,
      ),
    );
  }
  heading(
    "Start with entries stored (Chromium, on-disk profile)",
    `Chromium ${bench.version}, ${RUNS} runs × ${SAMPLES} starts, ${BODY_BYTES}-byte bodies, ${GAP_MS} ms idle before each; median (range) over runs`,
  );
  for (const [index, stored] of SIZES.entries()) {
    const perRun = runs.map((sizes) => sizes[index] as StartRun);
    figure(
      `start(), ${stored.toLocaleString("en")} stored`,
      spread(
        perRun.map((r) => median(r.start)),
        ms,
      ),
    );
    figure(
      `  reading every entry, ${stored.toLocaleString("en")} stored`,
      spread(
        perRun.map((r) => median(r.readAll)),
        ms,
      ),
    );
    figure(
      `  reading the open entries, ${stored.toLocaleString("en")} stored`,
      spread(
        perRun.map((r) => median(r.readOpen)),
        ms,
      ),
    );
  }
  const large = runs.map((sizes) => median((sizes[SIZES.length - 1] as StartRun).start));
  target("start() p50, 10,000 stored", spread(large, ms), "≤ 50 ms", median(large) <= 50);
} finally {
  await bench.close();
  await server.close();
}
