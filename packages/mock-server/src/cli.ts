/**
 * `npm run mock`: a supervisor process that runs the server in a child and
 * restarts it when a `crash` fault makes the child exit with code 70, so the
 * demo can show a crash and a restart over the file store.
 *
 * Env: PORT (8787), MOCK_HOST (127.0.0.1), MOCK_MODE (fixed), MOCK_STORE
 * (memory | file, default memory), MOCK_DATA (file store path, default
 * .mock-data/state.json under the repo root), and the tunables MOCK_CLAIM_LEASE_MS,
 * MOCK_TOOL_DURATION_MS, MOCK_KEEPALIVE_MS, MOCK_INTERRUPT_TTL_MS (so a demo can
 * show a lease lapsing in seconds rather than the default 30 s).
 *
 * MOCK_STORE=postgres DATABASE_URL=… runs the contract mode on the server
 * library's Postgres store (MOCK_SCHEMA, default agui_outbox; MOCK_INSTANCE_ID,
 * default mock-<PORT>, kept across crash restarts): several processes on one
 * database are replicas of one server.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isMockMode, MockMode, type StoreConfig } from "./options";

export const CRASH_EXIT_CODE = 70;
const CHILD_FLAG = "MOCK_SERVER_CHILD";

function storeFromEnv(env: NodeJS.ProcessEnv): StoreConfig {
  const kind = env.MOCK_STORE ?? "memory";
  if (kind === "memory") return { kind: "memory" };
  if (kind === "file") {
    const fallback = fileURLToPath(new URL("../../../.mock-data/state.json", import.meta.url));
    return { kind: "file", path: env.MOCK_DATA ?? fallback };
  }
  throw new Error(`MOCK_STORE must be "memory", "file" or "postgres"`);
}

function numberFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function tunablesFromEnv(env: NodeJS.ProcessEnv) {
  const tunables: {
    claimLeaseMs?: number;
    toolDurationMs?: number;
    keepaliveMs?: number;
    interruptTtlMs?: number;
  } = {};
  const lease = numberFromEnv(env, "MOCK_CLAIM_LEASE_MS");
  const tool = numberFromEnv(env, "MOCK_TOOL_DURATION_MS");
  const keepalive = numberFromEnv(env, "MOCK_KEEPALIVE_MS");
  const ttl = numberFromEnv(env, "MOCK_INTERRUPT_TTL_MS");
  if (lease !== undefined) tunables.claimLeaseMs = lease;
  if (tool !== undefined) tunables.toolDurationMs = tool;
  if (keepalive !== undefined) tunables.keepaliveMs = keepalive;
  if (ttl !== undefined) tunables.interruptTtlMs = ttl;
  return tunables;
}

async function runPostgresChild(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === "")
    throw new Error("MOCK_STORE=postgres needs DATABASE_URL");
  const { startPostgresMock } = await import("./library/postgres-mock");
  const port = Number(process.env.PORT ?? 8787);
  const { claimLeaseMs, toolDurationMs, keepaliveMs } = tunablesFromEnv(process.env);
  const server = await startPostgresMock({
    databaseUrl,
    port,
    host: process.env.MOCK_HOST ?? "127.0.0.1",
    schema: process.env.MOCK_SCHEMA ?? "agui_outbox",
    instanceId: process.env.MOCK_INSTANCE_ID ?? `mock-${port}`,
    ...(claimLeaseMs === undefined ? {} : { claimLeaseMs }),
    ...(toolDurationMs === undefined ? {} : { toolDurationMs }),
    ...(keepaliveMs === undefined ? {} : { keepaliveMs }),
    onCrash: (point) => {
      console.error(`[mock] crash fault at ${point}: exiting with ${CRASH_EXIT_CODE}`);
      process.exit(CRASH_EXIT_CODE);
    },
  });
  console.log(`[mock] fixed mode on ${server.url}/agent (Postgres store)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

async function runChild(): Promise<void> {
  if (process.env.MOCK_STORE === "postgres") return runPostgresChild();
  const { startMockServer } = await import("./mock-server");
  const mode = process.env.MOCK_MODE ?? MockMode.fixed;
  if (!isMockMode(mode)) throw new Error(`MOCK_MODE "${mode}" is not a known mode`);
  const store = storeFromEnv(process.env);
  const server = await startMockServer({
    port: Number(process.env.PORT ?? 8787),
    host: process.env.MOCK_HOST ?? "127.0.0.1",
    mode,
    store,
    ...tunablesFromEnv(process.env),
    onCrash: (info) => {
      console.error(`[mock] crash fault at ${info.point}: exiting with ${CRASH_EXIT_CODE}`);
      process.exit(CRASH_EXIT_CODE);
    },
    onModeChange: (next) => process.send?.({ type: "mode", mode: next }),
  });
  const where = store.kind === "file" ? `file store ${store.path}` : "memory store";
  console.log(`[mock] ${server.mode} mode on ${server.url}/agent (${where})`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function runSupervisor(): void {
  const env: NodeJS.ProcessEnv = { ...process.env, [CHILD_FLAG]: "1" };
  let child: ChildProcess | undefined;
  let stopping = false;

  const start = () => {
    child = fork(fileURLToPath(import.meta.url), [], { env, stdio: "inherit" });
    child.on("message", (message: unknown) => {
      const mode = (message as { type?: unknown; mode?: unknown } | null)?.mode;
      if (isMockMode(mode)) env.MOCK_MODE = mode;
    });
    child.on("exit", (code, signal) => {
      if (!stopping && code === CRASH_EXIT_CODE) {
        console.error("[mock] restarting after a crash");
        start();
        return;
      }
      process.exit(code ?? (signal === null ? 0 : 1));
    });
  };
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    if (child === undefined || child.exitCode !== null) process.exit(0);
    child.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  start();
}

if (process.env[CHILD_FLAG] === "1") {
  runChild().catch((error: unknown) => {
    console.error(`[mock] failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
} else {
  runSupervisor();
}
