// `npm run bench`: every benchmark in sequence, each in its own tsx process so one
// that fails is reported and the others still run. Iteration counts are env knobs
// (see each file's header); the exit code is non-zero when a benchmark failed to
// run, never because a target was missed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

interface Bench {
  readonly file: string;
  /** Extra node flags (the drain samples the heap after a forced GC). */
  readonly nodeFlags?: readonly string[];
}

const BENCHES: readonly Bench[] = [
  { file: "enqueue-durable.ts" },
  { file: "stream-throughput.ts" },
  { file: "recovery-reload.ts" },
  { file: "drain.ts" },
  { file: "reattach.ts" },
  // Benchmark 6 (size) lives in its own file; it runs here when present.
  { file: "bundle-size.ts" },
  { file: "server-postgres.ts" },
];

function run(bench: Bench): Promise<{ code: number; seconds: number }> {
  const path = fileURLToPath(new URL(bench.file, import.meta.url));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...(bench.nodeFlags ?? []), "--conditions=@agui-outbox/source", "--import", "tsx", path],
      {
        stdio: "inherit",
      },
    );
    child.on("exit", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

console.log(
  `agui-outbox benchmarks — Node ${process.version}, ${availableParallelism()} cores, ${new Date().toISOString()}`,
);
const started = performance.now();
const summary: string[] = [];
for (const bench of BENCHES) {
  if (!existsSync(fileURLToPath(new URL(bench.file, import.meta.url)))) {
    summary.push(`${bench.file.padEnd(24)} not present, skipped`);
    continue;
  }
  const { code, seconds } = await run(bench);
  summary.push(
    `${bench.file.padEnd(24)} ${code === 0 ? "ran" : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s`,
  );
}
console.log("\n== Summary");
for (const line of summary) console.log(`   ${line}`);
console.log(`   total ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (summary.some((line) => line.includes("FAILED"))) process.exitCode = 1;
