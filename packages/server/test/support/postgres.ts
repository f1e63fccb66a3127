import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real Postgres for tests: `initdb` in a temporary folder and `pg_ctl start`
 * on a free port, stopped and removed afterwards. As root the server runs as
 * the `postgres` user (initdb refuses root). Where no Postgres is installed the
 * tests that need it skip with {@link postgresUnavailable}'s reason.
 */
export interface TestPostgres {
  readonly url: string;
  readonly port: number;
  /** The temporary folder holding the cluster (`data/`, with its `postmaster.pid`) and its log. */
  readonly dir: string;
  stop(): void;
}

function findBinaries(): string | undefined {
  const fromEnv = process.env.POSTGRES_BIN;
  if (fromEnv !== undefined && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

/** Why Postgres cannot be started here, or undefined when it can. */
export function postgresUnavailable(): string | undefined {
  if (process.env.POSTGRES_UNAVAILABLE) return process.env.POSTGRES_UNAVAILABLE;
  if (findBinaries() === undefined) {
    return "Postgres unavailable (no initdb under /usr/lib/postgresql/*/bin; apt-get install postgresql)";
  }
  return undefined;
}

/** A port nothing listens on now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** `fsync: true` for measurements that must pay for durable commits (benchmarks); tests run without. */
export async function startPostgres(options: { readonly fsync?: boolean } = {}): Promise<TestPostgres> {
  const bin = findBinaries();
  if (bin === undefined) throw new Error(postgresUnavailable());
  const dir = mkdtempSync(join(tmpdir(), "agui-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    const gid = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : join(bin, tool);
    const full = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    return execFileSync(command, full, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  };
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  // POSTGRES_PORT pins the port (a machine where ports are handed out); otherwise any free one,
  // picked again when another process took it before Postgres could listen.
  const pinned = process.env.POSTGRES_PORT ? Number(process.env.POSTGRES_PORT) : undefined;
  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = pinned ?? (await freePort());
    // fsync off: a test database need not survive a power cut, and the machine is shared.
    const fsync = options.fsync === true ? "on" : "off";
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${fsync} -c max_connections=200`;
    try {
      run("pg_ctl", ["-D", data, "-o", serverOptions, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
      break;
    } catch (error) {
      if (pinned !== undefined || attempt === 3) throw error;
    }
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // Never left running, even when the process that started it dies of an error.
  process.once("exit", stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop };
}
