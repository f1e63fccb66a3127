import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real pydantic-ai AG-UI server (e2e/peers/pydantic-ai/app.py), started as a child
 * process on a free port. `npm test` runs the folder's setup.sh first; where it could
 * not install the packages, the tests skip with the reason it printed.
 */
export const pydanticAiPeerDir = fileURLToPath(
  new URL("../../../../e2e/peers/pydantic-ai/", import.meta.url),
);

/** Who holds the conversation: the server (a conversation store), or the client. */
export type PydanticAiHistory = "server" | "client";

/** The interpreter: the one setup.sh installed, unless PYDANTIC_AI_PEER_PYTHON names another. */
export function pydanticAiPython(): string {
  return process.env.PYDANTIC_AI_PEER_PYTHON || join(pydanticAiPeerDir, ".venv", "bin", "python");
}

/** Why the peer cannot run here, or undefined when it can. */
export function pydanticAiPeerUnavailableReason(): string | undefined {
  const named = process.env.PYDANTIC_AI_PEER_PYTHON;
  if (named) return existsSync(named) ? undefined : `PYDANTIC_AI_PEER_PYTHON=${named} does not exist`;
  const machine = process.env.PYDANTIC_AI_PEER_UNAVAILABLE;
  if (machine) return machine;
  if (!existsSync(pydanticAiPython())) {
    return `pydantic-ai peer not installed: run ${join(pydanticAiPeerDir, "setup.sh")}`;
  }
  return undefined;
}

export interface PydanticAiPeer {
  /** Base URL; the AG-UI endpoint is `${url}/agent`. */
  readonly url: string;
  /** How many POST /agent the server received for the thread since the last reset. */
  requests(threadId: string): Promise<number>;
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

export async function startPydanticAiPeer(history: PydanticAiHistory = "server"): Promise<PydanticAiPeer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const scratch = mkdtempSync(join(tmpdir(), "pydantic-ai-peer-"));
  const logPath = join(scratch, "peer.log");
  const log = openSync(logPath, "a");
  const child = spawn(pydanticAiPython(), [join(pydanticAiPeerDir, "app.py")], {
    env: {
      ...process.env,
      PORT: String(port),
      PEER_LEDGER: join(scratch, "ledger.jsonl"),
      PEER_HISTORY: history,
    },
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
    return response;
  };
  return {
    url,
    async requests(threadId) {
      const response = await fetch(`${url}/__requests?threadId=${encodeURIComponent(threadId)}`);
      return ((await response.json()) as { count: number }).count;
    },
    async ledger() {
      const response = await fetch(`${url}/__ledger`);
      return ((await response.json()) as { executions: Awaited<ReturnType<PydanticAiPeer["ledger"]>> })
        .executions;
    },
    chaos: async (faults) => {
      await post("/__chaos", { faults });
    },
    reset: async () => {
      await post("/__reset", {});
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The peer as a target of the contract checks (contract-checks.ts). */
export async function startPydanticAiTarget() {
  const peer = await startPydanticAiPeer("server");
  return { url: peer.url, ledger: peer.ledger, chaos: peer.chaos, close: peer.close };
}
