import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PythonPeer, startPythonPeer } from "./python-peer";

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

export interface PydanticAiPeer extends PythonPeer {
  /** How many POST /agent the server received for the thread since the last reset. */
  requests(threadId: string): Promise<number>;
}

export async function startPydanticAiPeer(history: PydanticAiHistory = "server"): Promise<PydanticAiPeer> {
  const peer = await startPythonPeer(pydanticAiPython(), join(pydanticAiPeerDir, "app.py"), {
    PEER_HISTORY: history,
  });
  return {
    ...peer,
    async requests(threadId) {
      const response = await fetch(`${peer.url}/__requests?threadId=${encodeURIComponent(threadId)}`);
      return ((await response.json()) as { count: number }).count;
    },
  };
}

/** The peer as a target of the contract checks (`@agui-outbox/conformance`). */
export async function startPydanticAiTarget() {
  const peer = await startPydanticAiPeer("server");
  return { url: peer.url, ledger: peer.ledger, chaos: peer.chaos, close: peer.close };
}
