// Benchmark 3: recovery after reload, in real Chromium.
// Each sample starts from a page that stored one answer (written durably, its
// request not yet answered) and was then reloaded. Timed, on the fresh page:
//   ours    — from `createOutboxClient()` + `start()` until the pending answer's resume
//             request is handed to fetch: opening the outbox database, loading the
//             namespace's entries, asking the agent for its capabilities (a real GET to
//             the mock server: the client shapes resumes by server kind), taking the
//             sending-tab lock, and the delivery engine's `sending` write;
//   by hand — the same durable work written by hand: opening the same IndexedDB
//             database with `idb`, reading the one record, writing its next attempt
//             back in a strict-durability transaction (the SDK's `sending` write),
//             and handing its request to fetch.
// In both the resume is recorded at the fetch call and not sent (so the server's
// answer is not timed). Each sample runs on its own reloaded page; the two readers
// alternate which goes first. BENCH_RUNS runs of BENCH_RECOVERY_SAMPLES reloads each;
// figures are the median (range) of the per-run values. The page runs on an on-disk
// profile, cross-origin isolated. Target: ours ≤ 1.3× by hand (p50).
import { startMockServer } from "@agui-outbox/mock-server";
import type { Page } from "playwright";
import type { RecoveryRequest, RecoveryTiming } from "./pages/recovery-page.ts";
import { gotoReady, openBenchPage } from "./support/browser-page.ts";
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

const SAMPLES = envInt("BENCH_RECOVERY_SAMPLES", 10);
const WARMUP = envInt("BENCH_RECOVERY_WARMUP", 3);

type Step = "prepare" | "ours" | "byHand";

function step(page: Page, name: Step, request: RecoveryRequest): Promise<RecoveryTiming | undefined> {
  return page.evaluate(
    ([which, input]) => {
      const api = (
        globalThis as unknown as {
          benchRecovery: Record<Step, (r: RecoveryRequest) => Promise<RecoveryTiming | undefined>>;
        }
      ).benchRecovery;
      return api[which](input);
    },
    [name, request] as const,
  );
}

const server = await startMockServer({ port: benchPort(PortOffset.mock) });
const bench = await openBenchPage("recovery-page.ts");
try {
  const runs: { ours: RecoveryTiming[]; byHand: number[] }[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const ours: RecoveryTiming[] = [];
    const byHand: number[] = [];
    // Warm-up reloads (the browser's code cache, the disk) before the first run only:
    // every reload is a fresh page, so later runs start as warm as the first ends.
    const warmup = run === 0 ? WARMUP : 0;
    for (let index = 0; index < warmup + SAMPLES; index += 1) {
      const request: RecoveryRequest = {
        agentUrl: `${server.url}/agent`,
        dbName: `bench-recovery-${run}-${index}`,
      };
      await gotoReady(bench.page, bench.url);
      await step(bench.page, "prepare", request);
      const order: Step[] = index % 2 === 0 ? ["ours", "byHand"] : ["byHand", "ours"];
      for (const which of order) {
        await gotoReady(bench.page, bench.url);
        const timed = await step(bench.page, which, request);
        if (timed === undefined) throw new Error(`${which} returned no time`);
        if (index < warmup) continue;
        if (which === "ours") ours.push(timed);
        else byHand.push(timed.total);
      }
    }
    runs.push({ ours, byHand });
  }
  heading(
    "3. Recovery after reload (Chromium, on-disk profile)",
    `Chromium ${bench.version}, ${RUNS} runs × ${SAMPLES} reloads each (after ${WARMUP} warm-up reloads before the first run); median (range) over runs`,
  );
  const perRun = (pick: (run: (typeof runs)[number]) => number) => runs.map(pick);
  const totals = (run: (typeof runs)[number]) => run.ours.map((timing) => timing.total);
  const phase = (pick: (timing: RecoveryTiming) => number) =>
    spread(
      perRun((run) => median(run.ours.map(pick))),
      ms,
    );
  figure(
    "ours: start() → resume handed to fetch",
    `p50 ${spread(
      perRun((run) => median(totals(run))),
      ms,
    )}   p95 ${spread(
      perRun((run) => percentile(totals(run), 95)),
      ms,
    )}`,
  );
  figure("  storage open, entries loaded (ready) at", `p50 ${phase((timing) => timing.ready)}`);
  figure("  sending tab (Web Lock taken) at", `p50 ${phase((timing) => timing.leader)}`);
  figure("  time spent on the capabilities GET", `p50 ${phase((timing) => timing.capabilities)}`);
  figure(
    "by hand: open + read + strict write + fetch",
    `p50 ${spread(
      perRun((run) => median(run.byHand)),
      ms,
    )}   p95 ${spread(
      perRun((run) => percentile(run.byHand, 95)),
      ms,
    )}`,
  );
  const ratios = perRun((run) => median(totals(run)) / median(run.byHand));
  target("p50 ratio ours / by hand", spread(ratios, times), "≤ 1.3×", median(ratios) <= 1.3);
} finally {
  await bench.close();
  await server.close();
}
