import { afterEach, expect, test } from "vitest";
import { freePortsSync } from "../e2e/support/free-ports.ts";
import { parseDemoArgs, startPeerBehindGateway } from "./peer-demo.mjs";

// `npm run demo -- --peer <name>` puts the demo in front of a real AG-UI server through
// the gateway (issue 33): the demo's /agent reaches the gateway, its ledger the peer.

let stop = async () => {};
afterEach(async () => {
  await stop();
});

test("--peer names one of the real peers; anything else is refused with the choices", () => {
  expect(parseDemoArgs([])).toEqual({ peer: undefined });
  expect(parseDemoArgs(["--peer", "langgraph"])).toEqual({ peer: "langgraph" });
  expect(() => parseDemoArgs(["--peer", "crewai"])).toThrow(
    "--peer must be one of agent-framework, langgraph, pydantic-ai",
  );
});

const python = `${import.meta.dirname}/../e2e/peers/pydantic-ai/.venv/bin/python`;
const { existsSync } = await import("node:fs");
const unavailable = existsSync(python)
  ? undefined
  : "pydantic-ai peer not installed: run e2e/peers/pydantic-ai/setup.sh";
if (unavailable) console.warn(`skipped (demo in front of a peer): ${unavailable}`);

test.skipIf(unavailable !== undefined)(
  "the gateway serves the contract in front of the peer, whose ledger stays reachable",
  { timeout: 120_000 },
  async () => {
    const [gatewayPort] = freePortsSync(1);
    const started = await startPeerBehindGateway("pydantic-ai", { gatewayPort: String(gatewayPort) });
    stop = started.stop;
    await started.ready;
    const capabilities = await (await fetch(`http://127.0.0.1:${gatewayPort}/agent/capabilities`)).json();
    expect(capabilities.custom["x-recovery"]).toBeDefined();
    const ledger = await fetch(`http://127.0.0.1:${started.controlPort}/__ledger`);
    expect(await ledger.json()).toEqual({ executions: [] });
  },
);
