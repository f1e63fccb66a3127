import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real Agent Framework AG-UI server (e2e/peers/agent-framework/app.py), started
 * as a child process on a free port. `npm test` runs the folder's setup.sh first; where
 * it could not install the packages, the tests skip with the reason it printed.
 */
export const peerDir = fileURLToPath(new URL("../../../../e2e/peers/agent-framework/", import.meta.url));

/**
 * Which release: `current` (requirements.txt) or `reported`, the one the
 * approval-resume report was filed against (requirements-reported.txt).
 */
export type PeerRelease = "current" | "reported";

/**
 * The interpreter that serves a release: the one setup.sh installed, unless an
 * environment variable names another (a venv with another release installed), so
 * the same tests judge it: `AF_PEER_PYTHON` for `current`, `AF_PEER_REPORTED_PYTHON`
 * for `reported`.
 */
export const PYTHON_VARIABLE: Readonly<Record<PeerRelease, string>> = {
  current: "AF_PEER_PYTHON",
  reported: "AF_PEER_REPORTED_PYTHON",
};

export function pythonOf(release: PeerRelease): string {
  const named = process.env[PYTHON_VARIABLE[release]];
  if (named) return named;
  return join(peerDir, release === "current" ? ".venv" : ".venv-reported", "bin", "python");
}

/** Why the peer cannot run here, or undefined when it can. */
export function peerUnavailableReason(release: PeerRelease = "current"): string | undefined {
  const named = process.env[PYTHON_VARIABLE[release]];
  if (named) return existsSync(named) ? undefined : `${PYTHON_VARIABLE[release]}=${named} does not exist`;
  const machine = process.env.AF_PEER_UNAVAILABLE;
  if (machine) return machine;
  if (!existsSync(pythonOf(release))) {
    const setup = `${join(peerDir, "setup.sh")}${release === "current" ? "" : ` ${release}`}`;
    return `Agent Framework peer (${release}) not installed: run ${setup}`;
  }
  return undefined;
}

export interface AgentFrameworkPeer {
  /** Base URL; the AG-UI endpoint is `${url}/agent`. */
  readonly url: string;
  ledger(): Promise<Array<{ threadId: string; toolCallId: string; args: unknown }>>;
  chaos(faults: readonly Record<string, unknown>[]): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
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
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the peer exited with ${child.exitCode}; see ${logPath}`);
    try {
      if ((await fetch(`${url}/__mode`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the peer did not start within 30 s; see ${logPath}`);
}

export async function startAgentFrameworkPeer(release: PeerRelease = "current"): Promise<AgentFrameworkPeer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const scratch = mkdtempSync(join(tmpdir(), "af-peer-"));
  const logPath = join(scratch, "peer.log");
  const log = openSync(logPath, "a");
  const child = spawn(pythonOf(release), [join(peerDir, "app.py")], {
    env: { ...process.env, PORT: String(port), PEER_LEDGER: join(scratch, "ledger.jsonl") },
    stdio: ["ignore", log, log],
  });
  await waitUntilServing(url, child, logPath);

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
      return ((await response.json()) as { executions: Awaited<ReturnType<AgentFrameworkPeer["ledger"]>> })
        .executions;
    },
    chaos: (faults) => post("/__chaos", { faults }),
    reset: () => post("/__reset", {}),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
