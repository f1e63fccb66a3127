// Benchmark 3: recovery after reload, in real Chromium.
// Each sample starts from a page that stored one answer (written durably, its
// request not yet answered) and was then reloaded. Timed, on the fresh page:
//   ours    — from `createOutboxClient()` + `start()` until the pending answer's resume
//             request is handed to fetch: opening the outbox database, loading the
//             namespace's entries, asking the agent for its capabilities (a real GET to
//             the mock server: the client shapes resumes by server kind), taking the
//             sending-tab lock, and the delivery engine's `sending` write;
//   by hand — opening the same IndexedDB database with `idb`, reading one record and
//             handing its request to fetch.
// In both the resume is recorded at the fetch call and not sent (so the server's
// answer is not timed). Each sample runs on its own reloaded page; the two readers
// alternate which goes first. Target: ours ≤ 1.5× by hand (p50).
import { startMockServer } from "@agui-outbox/mock-server";
import type { Page } from "playwright";
import type { RecoveryRequest, RecoveryTiming } from "./pages/recovery-page.ts";
import { gotoReady, openBenchPage } from "./support/browser-page.ts";
import { envInt, figure, heading, median, ms, percentile, target } from "./support/report.ts";

const SAMPLES = envInt("BENCH_RECOVERY_SAMPLES", 40);
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

const server = await startMockServer({ port: 0 });
const bench = await openBenchPage("recovery-page.ts");
try {
  const ours: RecoveryTiming[] = [];
  const byHand: number[] = [];
  for (let index = 0; index < WARMUP + SAMPLES; index += 1) {
    const request: RecoveryRequest = { agentUrl: `${server.url}/agent`, dbName: `bench-recovery-${index}` };
    await gotoReady(bench.page, bench.url);
    await step(bench.page, "prepare", request);
    const order: Step[] = index % 2 === 0 ? ["ours", "byHand"] : ["byHand", "ours"];
    for (const which of order) {
      await gotoReady(bench.page, bench.url);
      const timed = await step(bench.page, which, request);
      if (timed === undefined) throw new Error(`${which} returned no time`);
      if (index < WARMUP) continue;
      if (which === "ours") ours.push(timed);
      else byHand.push(timed.total);
    }
  }
  heading(
    "3. Recovery after reload (Chromium)",
    `Chromium ${bench.version}, ${SAMPLES} reloads each after ${WARMUP} warm-up`,
  );
  const totals = ours.map((timing) => timing.total);
  const phase = (pick: (timing: RecoveryTiming) => number) => ms(median(ours.map(pick)));
  figure(
    "ours: start() → resume handed to fetch",
    `p50 ${ms(median(totals))}   p95 ${ms(percentile(totals, 95))}`,
  );
  figure("  storage open, entries loaded (ready) at", `p50 ${phase((timing) => timing.ready)}`);
  figure("  sending tab (Web Lock taken) at", `p50 ${phase((timing) => timing.leader)}`);
  figure("  time spent on the capabilities GET", `p50 ${phase((timing) => timing.capabilities)}`);
  figure("by hand: open + read one + fetch", `p50 ${ms(median(byHand))}   p95 ${ms(percentile(byHand, 95))}`);
  const ratio = median(totals) / median(byHand);
  target("p50 ratio ours / by hand", `${ratio.toFixed(2)}×`, "≤ 1.5×", ratio <= 1.5);
} finally {
  await bench.close();
  await server.close();
}
