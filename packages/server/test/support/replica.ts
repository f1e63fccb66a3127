// One server replica for the replica tests and the Postgres soak: the scripted
// deploy agent on the library, on Postgres. Prints `READY <port>` once it listens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "pg";
import { createContractServer } from "../../src/index";
import { PostgresStore } from "../../src/store/postgres";
import { postgresFaults } from "./postgres-faults";
import { postgresLedger } from "./postgres-ledger";
import { scriptedDeployAgent } from "./scripted-agent";
import { scriptedBackgroundAgent } from "./scripted-background";

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const schema = env("REPLICA_SCHEMA", "agui_outbox");
const pool = new Pool({ connectionString: env("DATABASE_URL"), max: 10 });
const store = await PostgresStore.open({ pool, schema });
const faults = postgresFaults(pool, schema);
const { agent, tools } = scriptedDeployAgent(
  postgresLedger(pool, schema),
  { holdMs: Number(env("REPLICA_HOLD_MS", "20000")) },
  faults,
);
const server = createContractServer({
  store,
  agent,
  tools,
  background: scriptedBackgroundAgent(faults),
  instanceId: env("REPLICA_ID"),
  claimLeaseMs: Number(env("REPLICA_LEASE_MS", "3000")),
  sweepIntervalMs: Number(env("REPLICA_SWEEP_MS", "250")),
  tailPollMs: 1_000,
  keepaliveMs: 5_000,
});
const http = createServer(server.handler({ cors: true }));
http.listen(Number(env("REPLICA_PORT", "0")), "127.0.0.1", () => {
  process.stdout.write(`READY ${(http.address() as AddressInfo).port}\n`);
});

const stop = async () => {
  http.closeAllConnections();
  http.close();
  await server.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
// The process that started this one is gone (its end of stdin closed): never outlive it.
process.stdin.on("end", () => void stop());
process.stdin.resume();
process.on("SIGINT", () => void stop());
