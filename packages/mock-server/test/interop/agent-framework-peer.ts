import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PythonPeer, startPythonPeer } from "./python-peer";

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

export type AgentFrameworkPeer = PythonPeer;

export function startAgentFrameworkPeer(release: PeerRelease = "current"): Promise<AgentFrameworkPeer> {
  return startPythonPeer(pythonOf(release), join(peerDir, "app.py"));
}
