// `npm run demo -- --peer <name>`: the demo in front of a real AG-UI server (e2e/peers/)
// through @agui-outbox/gateway. The demo's /agent goes to the gateway; its ledger and chaos
// controls (/__*) go to the peer, which keeps them.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./free-port.mjs";
import { waitFor } from "./supervise.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
export const PEERS = ["agent-framework", "langgraph", "pydantic-ai"];

/** `--peer <name>`, checked; throws with the choices on anything else. */
export function parseDemoArgs(argv) {
  const { values } = parseArgs({ args: argv, options: { peer: { type: "string" } }, strict: true });
  if (values.peer !== undefined && !PEERS.includes(values.peer)) {
    throw new Error(`--peer must be one of ${PEERS.join(", ")}`);
  }
  return { peer: values.peer };
}

/**
 * Starts the peer on a free port and the gateway's CLI on `gatewayPort` in front of it.
 * `ready` resolves once both answer; `stop` ends both.
 */
export async function startPeerBehindGateway(peer, { gatewayPort, stdio = "ignore" }) {
  const controlPort = String(await freePort());
  const data = `${repo}.mock-data/demo-${peer}`;
  mkdirSync(data, { recursive: true });
  const peerProcess = spawn(
    `${repo}e2e/peers/${peer}/.venv/bin/python`,
    [`${repo}e2e/peers/${peer}/app.py`],
    {
      cwd: repo,
      stdio: ["ignore", stdio, "inherit"],
      env: { ...process.env, PORT: controlPort, PEER_LEDGER: `${data}/ledger.jsonl` },
    },
  );
  const upstream = `http://127.0.0.1:${controlPort}/agent`;
  const gateway = spawn(
    `${repo}node_modules/.bin/tsx`,
    [
      "--conditions=@agui-outbox/source",
      `${repo}packages/gateway/src/cli.ts`,
      "--upstream",
      upstream,
      "--port",
      gatewayPort,
    ],
    { cwd: repo, stdio: ["ignore", stdio, "inherit"], env: process.env },
  );
  const children = [peerProcess, gateway];
  const exited = (child) => new Promise((resolve) => child.once("exit", resolve));
  return {
    children,
    controlPort,
    upstream,
    ready: Promise.all([
      waitFor(`http://127.0.0.1:${controlPort}/__mode`),
      waitFor(`http://127.0.0.1:${gatewayPort}/agent/capabilities`),
    ]).then((answered) => {
      if (!answered.every(Boolean))
        throw new Error(`the ${peer} peer or the gateway did not start within a minute`);
    }),
    async stop() {
      const gone = children.filter((child) => child.exitCode === null).map(exited);
      for (const child of children) child.kill("SIGTERM");
      await Promise.all(gone);
    },
  };
}
