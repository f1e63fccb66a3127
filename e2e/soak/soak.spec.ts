// The seeded chaos soak. `npm test` runs a few schedules from a fixed seed; `npm run soak`
// runs SOAK_RUNS schedules (default 20) from SOAK_SEED (default: random, printed).
// A failing schedule prints its seed: `SOAK_SEED=<seed> SOAK_RUNS=1 npm run soak` replays it.
// Each schedule's history is judged by check-history.ts; SOAK_HISTORY=1 prints every history.
import { expect, test } from "@playwright/test";
import { MockControl } from "../support/mock-control";
import { scheduleSeed } from "./prng";
import {
  describeReplicaSchedule,
  drawReplicaSchedule,
  type ReplicaSchedule,
  startKills,
} from "./replica-schedule";
import { runSchedule } from "./run-schedule";
import { describeSchedule, drawSchedule } from "./schedule";

interface SoakMetadata {
  readonly mockUrl: string;
  readonly soakRuns?: number;
  readonly soakRandomSeed?: boolean;
  /** "replicas": three mock replicas on Postgres behind a proxy (SOAK_TOPOLOGY, e2e/soak.config.ts). */
  readonly topology?: "replicas";
}

const FIXED_SEED = 20_261_129;

test("chaos soak: every schedule's history keeps every promise (check-history.ts)", async ({
  browser,
}, testInfo) => {
  const metadata = testInfo.project.metadata as SoakMetadata;
  const baseURL = testInfo.project.use.baseURL;
  if (baseURL === undefined) throw new Error("the project names no baseURL");
  const runs = process.env.SOAK_SCHEDULES
    ? process.env.SOAK_SCHEDULES.split(",").filter(Boolean).length
    : Number(process.env.SOAK_RUNS ?? metadata.soakRuns ?? 3);
  const base =
    process.env.SOAK_SEED !== undefined
      ? Number(process.env.SOAK_SEED)
      : metadata.soakRandomSeed
        ? Math.floor(Math.random() * 4294967296)
        : FIXED_SEED;
  if (!Number.isInteger(runs) || runs < 1) throw new Error("SOAK_RUNS must be a positive integer");
  if (!Number.isInteger(base) || base < 0) throw new Error("SOAK_SEED must be a non-negative integer");
  test.setTimeout(runs * 120_000);
  const verbose = process.env.SOAK_VERBOSE === "1";
  const mock = new MockControl(metadata.mockUrl);
  console.log(`soak: ${runs} schedules from SOAK_SEED=${base}`);
  const replicas = metadata.topology === "replicas";
  if (replicas)
    console.log(
      "soak: three mock replicas on Postgres, replica kills among the faults; contract schedules only (the af-* emulations are one process on memory by design)",
    );
  const draw = (seed: number): ReplicaSchedule =>
    replicas ? drawReplicaSchedule(seed) : { ...drawSchedule(seed), kills: [] };
  const describe = (schedule: ReplicaSchedule): string =>
    replicas ? describeReplicaSchedule(schedule) : describeSchedule(schedule);

  const started = Date.now();
  const failures: string[] = [];
  const verdicts = new Map<string, number>();
  let violations = 0;
  let executions = 0;
  let slowest = 0;
  // SOAK_SCHEDULES=<seed>,<seed>… replays those schedules (each a seed printed by a run) instead.
  const listed = (process.env.SOAK_SCHEDULES ?? "").split(",").filter(Boolean).map(Number);
  for (let index = 0; index < runs; index += 1) {
    const schedule = draw(listed[index] ?? scheduleSeed(base, index));
    const disturb = replicas
      ? (threadId: string) => startKills(mock.url, threadId, schedule.kills)
      : undefined;
    const result = await runSchedule(browser, baseURL, mock, schedule, disturb);
    violations += result.violations.length;
    executions += result.executions;
    slowest = Math.max(slowest, result.ms);
    verdicts.set(result.verdict, (verdicts.get(result.verdict) ?? 0) + 1);
    if (verbose)
      console.log(`  ${describe(schedule)} → ${result.verdict} (${result.ms} ms: ${result.phases})`);
    if (process.env.SOAK_HISTORY === "1") console.log(result.history.map((line) => `    ${line}`).join("\n"));
    if (result.violations.length > 0) {
      const lines = [
        `VIOLATION ${describe(schedule)} → ${result.verdict}`,
        ...result.violations.map((violation) => `  - ${violation}`),
        ...(result.excerpt.length > 0
          ? ["  history up to the first violation:", ...result.excerpt.map((line) => `    ${line}`)]
          : []),
        `  replay: ${replicas ? "SOAK_TOPOLOGY=replicas " : ""}SOAK_SEED=${schedule.seed} SOAK_RUNS=1 npm run soak`,
      ];
      console.log(lines.join("\n"));
      failures.push(lines.join("\n"));
    }
    // A long soak says how far it got, so a run cut short still reports what it covered.
    if ((index + 1) % 20 === 0 && index + 1 < runs)
      console.log(
        `soak: ${index + 1}/${runs} schedules, violations ${violations}, seconds ${Math.round((Date.now() - started) / 1000)}`,
      );
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const spread = [...verdicts].map(([verdict, count]) => `${verdict} ${count}`).join(", ");
  console.log(
    `verdicts: ${spread}; ${Math.round((Date.now() - started) / runs)} ms per schedule, slowest ${slowest} ms`,
  );
  console.log(`schedules ${runs}, violations ${violations}, executions ${executions}, seconds ${seconds}`);
  expect(failures).toEqual([]);
});
