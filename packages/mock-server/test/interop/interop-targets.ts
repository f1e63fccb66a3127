// The servers the contract checks judge, started on free ports: the mock in each mode,
// and the real Agent Framework endpoint in two releases (when their Python environments
// are installed).

import type { CheckTarget } from "@agui-outbox/conformance";
import { type MockMode, startMockServer } from "../../src/index";
import { type PeerRelease, startAgentFrameworkPeer } from "./agent-framework-peer";
import { startLangGraphPeer } from "./langgraph-peer";

/** A server we start ourselves: its ledger and fault hooks are always there. */
export interface RunningTarget extends CheckTarget {
  readonly ledger: NonNullable<CheckTarget["ledger"]>;
  readonly chaos: NonNullable<CheckTarget["chaos"]>;
  readonly close: () => Promise<void>;
}

export async function startMockTarget(mode: MockMode): Promise<RunningTarget> {
  const server = await startMockServer({ port: 0, mode, toolDurationMs: 5 });
  return {
    url: server.url,
    ledger: async () =>
      ((await (await fetch(`${server.url}/__ledger`)).json()) as { executions: Array<{ threadId: string }> })
        .executions,
    chaos: async (faults) => {
      const response = await fetch(`${server.url}/__chaos`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ faults }),
      });
      if (!response.ok) throw new Error(`chaos refused: HTTP ${response.status}`);
    },
    close: () => server.close(),
  };
}

export async function startAgentFrameworkTarget(release: PeerRelease): Promise<RunningTarget> {
  const peer = await startAgentFrameworkPeer(release);
  return { url: peer.url, ledger: peer.ledger, chaos: peer.chaos, close: peer.close };
}

export async function startLangGraphTarget(): Promise<RunningTarget> {
  const peer = await startLangGraphPeer();
  return { url: peer.url, ledger: peer.ledger, chaos: peer.chaos, close: peer.close };
}
