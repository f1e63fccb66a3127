// `npm run bench`: every benchmark in sequence, each in its own tsx process so one
// that fails is reported and the others still run. Iteration counts are env knobs
// (see each file's header); BENCH_ONLY=<name>[,<name>…] runs only the files whose names
// contain one of them (BENCH_ONLY=gateway); the exit code is non-zero when a benchmark failed to
// run, never because a target was missed.
//
// Besides the console, the run is written as a Markdown section for
// bench/RESULTS.md (BENCH_REPORT, default bench/last-run.md): the machine, the
// commit, each benchmark's wall time with the load average before and after it,
// every target line in one table, and each benchmark's full output.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
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
  { file: "start-stored.ts" },
  { file: "drain.ts" },
  { file: "reattach.ts" },
  // Benchmark 6 (size) lives in its own file; it runs here when present.
  { file: "bundle-size.ts" },
  { file: "server-postgres.ts" },
  { file: "gateway.ts" },
];

interface Ran {
  readonly file: string;
  readonly status: string;
  readonly seconds: number;
  readonly loadBefore: string;
  readonly loadAfter: string;
  readonly output: string;
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
}

function run(bench: Bench): Promise<{ code: number; seconds: number; output: string }> {
  const path = fileURLToPath(new URL(bench.file, import.meta.url));
  const started = performance.now();
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...(bench.nodeFlags ?? []), "--conditions=@agui-outbox/source", "--import", "tsx", path],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const keep = (into: NodeJS.WriteStream) => (chunk: Buffer) => {
      into.write(chunk);
      chunks.push(chunk);
    };
    child.stdout?.on("data", keep(process.stdout));
    child.stderr?.on("data", keep(process.stderr));
    child.on("close", (code, signal) =>
      resolve({
        code: code ?? (signal ? 1 : 0),
        seconds: (performance.now() - started) / 1000,
        output: Buffer.concat(chunks).toString("utf8"),
      }),
    );
  });
}

function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return "unknown";
  }
}

// Escape sequences some tools print would garble the Markdown.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal colours
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

function report(ran: readonly Ran[], startedAt: Date, totalSeconds: number): string {
  const targets = ran.flatMap((r) =>
    plain(r.output)
      .split("\n")
      .filter((line) => / target .* (met|NOT MET)$/.test(line))
      .map((line) => {
        const match = /^\s*(.*?)\s{2,}(.*?)\s+target (.*?)\s+(met|NOT MET)$/.exec(line);
        return match ? `| ${r.file} | ${match[1]} | ${match[2]} | ${match[3]?.trim()} | ${match[4]} |` : "";
      })
      .filter((row) => row !== ""),
  );
  return [
    `## Run at ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC (commit ${commitAtStart})`,
    "",
    `Node ${process.version}, ${availableParallelism()} cores; total ${totalSeconds.toFixed(1)} s. ` +
      "Load is the 1/5/15-minute load average before and after each benchmark.",
    "",
    "| benchmark | result | wall time | load before | load after |",
    "| --- | --- | ---: | --- | --- |",
    ...ran.map(
      (r) => `| ${r.file} | ${r.status} | ${r.seconds.toFixed(1)} s | ${r.loadBefore} | ${r.loadAfter} |`,
    ),
    "",
    "| benchmark | figure | median (range) | target | met |",
    "| --- | --- | --- | --- | --- |",
    ...targets,
    "",
    ...ran.flatMap((r) => [`### ${r.file}`, "", "```text", plain(r.output).trimEnd(), "```", ""]),
  ].join("\n");
}

const startedAt = new Date();
const commitAtStart = commit();
console.log(
  `agui-outbox benchmarks — Node ${process.version}, ${availableParallelism()} cores, ${startedAt.toISOString()}, load ${load()}`,
);
const started = performance.now();
const ran: Ran[] = [];
const only = process.env.BENCH_ONLY?.split(",").filter(Boolean);
for (const bench of BENCHES) {
  if (only !== undefined && !only.some((name) => bench.file.includes(name))) continue;
  if (!existsSync(fileURLToPath(new URL(bench.file, import.meta.url)))) {
    ran.push({
      file: bench.file,
      status: "not present",
      seconds: 0,
      loadBefore: "",
      loadAfter: "",
      output: "",
    });
    continue;
  }
  const loadBefore = load();
  const { code, seconds, output } = await run(bench);
  const status = code === 0 ? "ran" : `FAILED (exit ${code})`;
  ran.push({ file: bench.file, status, seconds, loadBefore, loadAfter: load(), output });
}
const totalSeconds = (performance.now() - started) / 1000;
console.log("\n== Summary (wall time; load average before → after)");
for (const r of ran) {
  console.log(
    `   ${r.file.padEnd(24)} ${r.status.padEnd(18)} ${r.seconds.toFixed(1).padStart(6)} s   ${r.loadBefore} → ${r.loadAfter}`,
  );
}
console.log(`   total ${totalSeconds.toFixed(1)} s`);
const reportPath = process.env.BENCH_REPORT || fileURLToPath(new URL("last-run.md", import.meta.url));
writeFileSync(reportPath, report(ran, startedAt, totalSeconds));
console.log(`   Markdown for bench/RESULTS.md written to ${reportPath}`);
if (ran.some((r) => r.status.startsWith("FAILED"))) process.exitCode = 1;
