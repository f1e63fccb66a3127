/**
 * "The mock" as three replicas: a real Postgres (initdb in a temporary folder, as the
 * `postgres` user when run as root), three mock server processes on it (MOCK_STORE=postgres)
 * and a round-robin proxy on PORT, so the demo and the soak reach it exactly as they reach
 * the single mock. A replica that dies — a `crash` fault, or a kill through the control
 * route — is restarted after a short pause while the other two keep serving; the proxy skips
 * a replica that refuses connections.
 *
 * Control routes, answered by the proxy itself:
 *   POST /__kill-replica {"threadId", "target": "claim-holder" | "run-owner" | "random", "waitMs"}
 *     SIGKILLs the replica holding the thread's claim (or running its newest open run, with at
 *     least `afterEvents` events), waiting up to waitMs for one; a random replica when none shows.
 *     Answers {"killed": "replica-2" | null, "why": "…"}.
 *   GET /__replicas — each replica's id, port, whether it serves now, and how often it died.
 *
 * Env: PORT (8797), POSTGRES_PORT (any free one), MOCK_REPLICA_PORTS ("p1,p2,p3", free ones),
 * and the mock's tunables (MOCK_CLAIM_LEASE_MS, MOCK_TOOL_DURATION_MS…), passed to each replica.
 * SIGTERM/SIGINT stop the proxy, the replicas and Postgres; if this process is killed outright,
 * a detached watcher stops Postgres once it is gone.
 */
import { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Pool } from "pg";
import {
  freePort,
  postgresUnavailable,
  startPostgres,
  type TestPostgres,
} from "../../../packages/server/test/support/postgres";
import {
  type RoundRobinProxy,
  startRoundRobinProxy,
} from "../../../packages/server/test/support/round-robin-proxy";
import { ReplicaFleet, type ReplicaState } from "./replica-fleet";

const SCHEMA = '"agui_outbox"';
/** Milliseconds now, on the database's clock: a claim whose lease lapsed is held by no one. */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
const log = (line: string) => console.error(`[mock-replicas] ${line}`);

async function replicaPorts(): Promise<number[]> {
  const listed = (process.env.MOCK_REPLICA_PORTS ?? "").split(",").filter(Boolean).map(Number);
  if (listed.length > 0) {
    if (listed.length !== 3 || listed.some((port) => !Number.isInteger(port) || port <= 0))
      throw new Error("MOCK_REPLICA_PORTS must name three ports");
    return listed;
  }
  return [await freePort(), await freePort(), await freePort()];
}

/** Stops Postgres when this process is gone, however it went (a SIGKILL runs no exit handler). */
function watchOverPostgres(postgres: TestPostgres): void {
  const pidFile = join(postgres.dir, "data", "postmaster.pid");
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; [ -f ${pidFile} ] && kill -QUIT "$(head -1 ${pidFile})" 2>/dev/null; sleep 2; rm -rf ${postgres.dir}`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

interface KillRequest {
  readonly threadId?: string;
  readonly target?: "claim-holder" | "run-owner" | "random";
  readonly waitMs?: number;
  readonly afterEvents?: number;
}

/** Finds the replica the request names in the shared tables, waiting for it to appear. */
async function chooseVictim(
  pool: Pool,
  fleet: ReplicaFleet,
  request: KillRequest,
): Promise<{ replica: ReplicaState | undefined; why: string }> {
  const target = request.target ?? "random";
  const deadline = Date.now() + Math.min(request.waitMs ?? 0, 30_000);
  if (target !== "random" && request.threadId !== undefined) {
    const query =
      target === "claim-holder"
        ? `SELECT r.owner FROM ${SCHEMA}.occurrences o JOIN ${SCHEMA}.runs r ON r.run_id = o.claim_run_id
            WHERE o.thread_id = $1 AND o.claim_run_id IS NOT NULL AND r.owner IS NOT NULL AND $2::int >= 0
            AND o.lease_until > ${NOW_MS}`
        : `SELECT owner FROM ${SCHEMA}.runs WHERE thread_id = $1 AND terminal IS NULL AND owner IS NOT NULL
            AND last_seq >= $2 ORDER BY updated_at DESC`;
    for (;;) {
      const { rows } = await pool.query<{ owner: string }>(query, [
        request.threadId,
        request.afterEvents ?? 1,
      ]);
      const live = rows.map((row) => fleet.byId(row.owner)).find((replica) => replica?.ready === true);
      if (live !== undefined)
        return { replica: live, why: target === "claim-holder" ? "held the claim" : "ran the stream" };
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const ready = fleet.replicas.filter((replica) => replica.ready);
  const replica = ready[Math.floor(Math.random() * ready.length)];
  return { replica, why: target === "random" ? "random" : `no ${target} seen: a random one` };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*" });
  res.end(JSON.stringify(body));
}

function controlRoutes(pool: Pool, fleet: ReplicaFleet) {
  return (req: IncomingMessage, body: Buffer, res: ServerResponse): boolean => {
    const path = new URL(req.url ?? "/", "http://proxy.invalid").pathname;
    if (path === "/__replicas" && req.method === "GET") {
      sendJson(res, 200, {
        replicas: fleet.replicas.map(({ id, port, ready, deaths }) => ({ id, port, ready, deaths })),
      });
      return true;
    }
    if (path !== "/__kill-replica" || req.method !== "POST") return false;
    let request: KillRequest;
    try {
      request = (body.length === 0 ? {} : JSON.parse(body.toString("utf8"))) as KillRequest;
    } catch {
      sendJson(res, 400, { error: "the body is not JSON" });
      return true;
    }
    chooseVictim(pool, fleet, request).then(
      ({ replica, why }) => {
        const killed = replica !== undefined && fleet.kill(replica);
        if (killed) log(`SIGKILL ${replica.id} (${why})`);
        sendJson(res, 200, { killed: killed ? replica.id : null, why });
      },
      (error: unknown) =>
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) }),
    );
    return true;
  };
}

async function main(): Promise<void> {
  const unavailable = postgresUnavailable();
  if (unavailable !== undefined) {
    console.error(`[mock-replicas] ${unavailable}: the replicas topology cannot run here.`);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8797);
  const postgres = await startPostgres();
  watchOverPostgres(postgres);
  let proxy: RoundRobinProxy | undefined;
  let pool: Pool | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Shutting down: a proxy or pool that fails to close goes with the process, which exits next.
    await proxy?.close().catch(() => undefined);
    await fleet.stop();
    await pool?.end().catch(() => undefined);
    postgres.stop();
    process.exit(code);
  };
  const fleet = new ReplicaFleet({
    databaseUrl: postgres.url,
    ports: await replicaPorts(),
    log,
    onBroken: (reason) => {
      log(`${reason}: stopping`);
      void stop(1);
    },
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop(0));
  try {
    await fleet.start();
    pool = new Pool({ connectionString: postgres.url, max: 2 });
    proxy = await startRoundRobinProxy(() => fleet.liveUrls(), undefined, {
      port,
      control: controlRoutes(pool, fleet),
    });
  } catch (error) {
    log(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
    return;
  }
  console.log(
    `[mock-replicas] ${fleet.replicas.length} mock replicas on Postgres :${postgres.port} (${postgres.dir}) behind ${proxy.url}/agent`,
  );
}

await main();
