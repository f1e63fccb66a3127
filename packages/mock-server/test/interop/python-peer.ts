import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real AG-UI server written in Python (an `e2e/peers/<name>/app.py`), started as a
 * child process on a free port, that speaks the mock's test controls: `GET /__mode`
 * (readiness), `GET /__ledger`, `POST /__chaos`, `POST /__reset`.
 */
export interface PythonPeer {
  /** Base URL; the AG-UI endpoint is `${url}/agent`. */
  readonly url: string;
  ledger(): Promise<Array<{ threadId: string; toolCallId: string; args: unknown }>>;
  chaos(faults: readonly Record<string, unknown>[]): Promise<void>;
  reset(): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash would: nothing it holds in memory survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and ledger, after `kill`: a restarted server. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The version of each named distribution installed where `python` runs: what a test
 * measures, which can differ from the pins (an interpreter named by an environment
 * variable, a venv not yet reinstalled).
 */
export function installedVersions(python: string, names: readonly string[]): Record<string, string> {
  const script =
    "import importlib.metadata as m, json, sys; print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))";
  const result = spawnSync(python, ["-c", script, ...names], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `${python} cannot tell the versions of ${names.join(", ")}: ${result.stderr || result.error}`,
    );
  }
  return JSON.parse(result.stdout) as Record<string, string>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitUntilServing(url: string, child: ChildProcess, logPath: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the peer exited with ${child.exitCode}; see ${logPath}`);
    try {
      if ((await fetch(`${url}/__mode`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the peer did not start within 90 s; see ${logPath}`);
}

/**
 * Starts `app` with `python` on a free port, its ledger and log in a fresh temp folder;
 * `env` adds the peer's own settings (who holds the history, for one).
 */
export async function startPythonPeer(
  python: string,
  app: string,
  env: Readonly<Record<string, string>> = {},
): Promise<PythonPeer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const scratch = mkdtempSync(join(tmpdir(), "agui-peer-"));
  const logPath = join(scratch, "peer.log");
  const log = openSync(logPath, "a");
  const spawnPeer = async (): Promise<ChildProcess> => {
    const started = spawn(python, [app], {
      env: { ...process.env, ...env, PORT: String(port), PEER_LEDGER: join(scratch, "ledger.jsonl") },
      stdio: ["ignore", log, log],
    });
    // A peer that never came up must not outlive the attempt.
    await waitUntilServing(url, started, logPath).catch((error: unknown) => {
      started.kill("SIGKILL");
      throw error;
    });
    return started;
  };
  let child = await spawnPeer();
  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  };
  return {
    url,
    async ledger() {
      const response = await fetch(`${url}/__ledger`);
      return ((await response.json()) as { executions: Awaited<ReturnType<PythonPeer["ledger"]>> })
        .executions;
    },
    chaos: (faults) => post("/__chaos", { faults }),
    reset: () => post("/__reset", {}),
    kill: () => stop("SIGKILL"),
    async restart() {
      child = await spawnPeer();
    },
    async close() {
      await stop("SIGTERM");
      closeSync(log);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
