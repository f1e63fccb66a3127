// The recovery contract's server side under load: resumes per second and claim latency
// (POST → the RUN_STARTED claim ack) p50/p99, on the memory store, on Postgres with one
// server instance and with three instances on one database, in one run; and what the
// contract costs per resume on Postgres (statements, bytes sent, bytes stored).
//
//   npx tsx --conditions=@agui-outbox/source bench/server-postgres.ts
//   BENCH_RESUMES=400 BENCH_CONCURRENCY=16 …
//
// Postgres is started the way the tests start it (initdb in a temporary folder, a free
// port, fsync off), and stopped at the end. Where none is installed the Postgres rows
// say so and the memory row still runs.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, Pool } from "pg";
import { SseReader } from "../packages/mock-server/test/support/sse-reader";
import { type ContractServer, createContractServer, MemoryStore } from "../packages/server/src/index";
import type { ContractStore } from "../packages/server/src/store/contract-store";
import { PostgresStore } from "../packages/server/src/store/postgres";
import { ContractClient, resumeBody } from "../packages/server/test/support/contract-client";
import { postgresUnavailable, startPostgres } from "../packages/server/test/support/postgres";
import { memoryLedger, scriptedDeployAgent } from "../packages/server/test/support/scripted-agent";

const RESUMES = Number(process.env.BENCH_RESUMES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

/** Every statement any pg client in this process sends, and the bytes of its text and parameters. */
const wire = { statements: 0, bytes: 0 };
const originalQuery = Client.prototype.query;
Client.prototype.query = function counted(this: Client, ...args: unknown[]) {
  wire.statements += 1;
  const [first, second] = args as [unknown, unknown];
  const text = typeof first === "string" ? first : ((first as { text?: string })?.text ?? "");
  const values = Array.isArray(second) ? second : ((first as { values?: unknown[] })?.values ?? []);
  wire.bytes += Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(values));
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

interface Instance {
  readonly contract: ContractServer;
  readonly http: Server;
  readonly client: ContractClient;
}

async function startInstance(store: ContractStore, id: string): Promise<Instance> {
  const { agent, tools } = scriptedDeployAgent(memoryLedger());
  const contract = createContractServer({ store, agent, tools, instanceId: id, sweepIntervalMs: 1_000 });
  const http = createServer(contract.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    contract,
    http,
    client: new ContractClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`),
  };
}

async function stopInstance(instance: Instance): Promise<void> {
  await instance.contract.close();
  instance.http.closeAllConnections();
  await new Promise((resolve) => instance.http.close(resolve));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Row {
  readonly name: string;
  readonly resumesPerSecond: number;
  readonly claimP50: number;
  readonly claimP99: number;
  readonly statementsPerResume?: number;
  readonly bytesSentPerResume?: number;
}

/** Opens RESUMES interrupts (untimed), then resumes them CONCURRENCY at a time, spread over the instances. */
async function measure(name: string, instances: readonly Instance[]): Promise<Row> {
  const pick = (index: number) => (instances[index % instances.length] as Instance).client;
  const asked: { threadId: string; interruptId: string }[] = [];
  for (let index = 0; index < RESUMES; index += 1) {
    const threadId = `bench-${randomUUID()}`;
    const { interruptId } = await pick(index).askToDeploy(threadId, "deploy prod");
    asked.push({ threadId, interruptId });
  }
  const claims: number[] = [];
  const before = { ...wire };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < asked.length; index = next++) {
        const { threadId, interruptId } = asked[index] as (typeof asked)[number];
        const key = randomUUID();
        const sent = performance.now();
        // The resume lands on another instance than the turn that asked, as behind a balancer.
        const response = await pick(index + 1).post(resumeBody(threadId, `r-${key}`, interruptId, key), key);
        const reader = new SseReader(response);
        await reader.waitFor((r) => r.frames.length >= 1);
        claims.push(performance.now() - sent);
        await reader.done;
        if (reader.types.at(-1) !== "RUN_FINISHED") throw new Error(`resume ended ${reader.types.join(",")}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  claims.sort((a, b) => a - b);
  const statements = wire.statements - before.statements;
  return {
    name,
    resumesPerSecond: RESUMES / seconds,
    claimP50: percentile(claims, 50),
    claimP99: percentile(claims, 99),
    ...(statements > 0
      ? {
          statementsPerResume: statements / RESUMES,
          bytesSentPerResume: (wire.bytes - before.bytes) / RESUMES,
        }
      : {}),
  };
}

const rows: Row[] = [];
const memory = await startInstance(new MemoryStore(), "memory");
rows.push(await measure("memory store, 1 instance", [memory]));
await stopInstance(memory);

let storedPerResume: number | undefined;
const unavailable = postgresUnavailable();
if (unavailable === undefined) {
  const postgres = await startPostgres();
  try {
    const one = await startInstance(
      await PostgresStore.open({ connectionString: postgres.url, schema: "one" }),
      "pg-1",
    );
    rows.push(await measure("Postgres, 1 instance", [one]));
    await stopInstance(one);

    const three = await Promise.all(
      [1, 2, 3].map(async (n) =>
        startInstance(
          await PostgresStore.open({ connectionString: postgres.url, schema: "three" }),
          `pg-3-${n}`,
        ),
      ),
    );
    rows.push(await measure("Postgres, 3 instances on one database", three));
    await Promise.all(three.map(stopInstance));

    const pool = new Pool({ connectionString: postgres.url });
    const size = await pool.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'one' AND c.relkind = 'r'`,
    );
    // Each resume here also carries the turn that asked (its run log and occurrence): both are counted.
    storedPerResume = Number(size.rows[0]?.bytes) / RESUMES;
    await pool.end();
  } finally {
    postgres.stop();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(`\nserver contract: ${RESUMES} resumes, ${CONCURRENCY} at a time (claim = POST → claim ack)`);
console.log("| setup | resumes/s | claim p50 | claim p99 | statements/resume | bytes sent/resume |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.resumesPerSecond.toFixed(0)} | ${ms(row.claimP50)} | ${ms(row.claimP99)} | ${
      row.statementsPerResume?.toFixed(1) ?? "–"
    } | ${row.bytesSentPerResume?.toFixed(0) ?? "–"} |`,
  );
}
if (unavailable !== undefined) console.log(`${unavailable}: the Postgres rows are skipped.`);
if (storedPerResume !== undefined) {
  console.log(
    `bytes stored per resume on Postgres (with its turn; tables and indexes): ${storedPerResume.toFixed(0)}`,
  );
}
const memoryRow = rows[0];
for (const row of rows.slice(1)) {
  if (memoryRow !== undefined) {
    console.log(
      `${row.name}: ${(memoryRow.resumesPerSecond / row.resumesPerSecond).toFixed(1)}× slower than memory`,
    );
  }
}
