import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PythonPeer, startPythonPeer } from "./python-peer";

/**
 * The real LangGraph AG-UI server (e2e/peers/langgraph/app.py: `ag-ui-langgraph` with a
 * scripted model). `npm test` runs the folder's setup.sh first; where it could not
 * install the packages, the tests skip with the reason it printed (LANGGRAPH_PEER_UNAVAILABLE).
 */
export const langGraphPeerDir = fileURLToPath(new URL("../../../../e2e/peers/langgraph/", import.meta.url));

/** Names another interpreter (a venv with another release installed) for the same tests. */
export const LANGGRAPH_PYTHON_VARIABLE = "LANGGRAPH_PEER_PYTHON";

export function langGraphPython(): string {
  return process.env[LANGGRAPH_PYTHON_VARIABLE] || join(langGraphPeerDir, ".venv", "bin", "python");
}

/** Why the peer cannot run here, or undefined when it can. */
export function langGraphPeerUnavailableReason(): string | undefined {
  const named = process.env[LANGGRAPH_PYTHON_VARIABLE];
  if (named) return existsSync(named) ? undefined : `${LANGGRAPH_PYTHON_VARIABLE}=${named} does not exist`;
  const machine = process.env.LANGGRAPH_PEER_UNAVAILABLE;
  if (machine) return machine;
  if (!existsSync(langGraphPython())) {
    return `LangGraph peer not installed: run ${join(langGraphPeerDir, "setup.sh")}`;
  }
  return undefined;
}

export function startLangGraphPeer(): Promise<PythonPeer> {
  return startPythonPeer(langGraphPython(), join(langGraphPeerDir, "app.py"));
}
