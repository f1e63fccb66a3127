import type { BaseEvent } from "@ag-ui/client";
import { createIsolatedClient } from "@agui-outbox/core/testing";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type AgentFrameworkPeer,
  type PeerRelease,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../../mock-server/test/interop/agent-framework-peer";
import { DurableEventName, DurableHttpAgent, type VerdictDetail } from "../../src/index";
import { customEvents, lastEvent, resumeWith, say, verifySequence } from "../agent-harness";

// DurableHttpAgent against the real Agent Framework AG-UI server (e2e/peers/agent-framework)
// with a scripted model. It has no recovery contract: the agent runs on the core's
// degraded rules, and its subscribers must still see well-formed runs and true verdicts.

const RELEASES: readonly PeerRelease[] = ["current", "reported"];

for (const release of RELEASES) {
  const reason = peerUnavailableReason(release);
  if (reason) console.warn(`skipped: ${reason}`);
}

describe.each(RELEASES)("DurableHttpAgent on the real Agent Framework server, %s release", (release) => {
  const unavailable = peerUnavailableReason(release);
  let peer: AgentFrameworkPeer;
  const agents: DurableHttpAgent[] = [];
  let indexedDB = new IDBFactory();
  const runs = new Map<DurableHttpAgent, BaseEvent[][]>();

  beforeAll(async () => {
    if (unavailable === undefined) peer = await startAgentFrameworkPeer(release);
  }, 40_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.client.dispose();
    indexedDB = new IDBFactory();
    await peer?.reset();
  });

  /** A page; a second call in one test is a reload (same IndexedDB). */
  function page(threadId: string, fetchImpl?: (input: string, init?: RequestInit) => Promise<Response>) {
    const client = createIsolatedClient({
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "agent-af",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      indexedDB,
      ...(fetchImpl ? { deps: { fetch: fetchImpl } } : {}),
    });
    const agent = new DurableHttpAgent({ client, threadId });
    const mine: BaseEvent[][] = [];
    runs.set(agent, mine);
    agent.subscribe({
      onEvent: ({ event }) => {
        if (event.type === "RUN_STARTED") mine.push([]);
        mine.at(-1)?.push(event);
      },
    });
    agents.push(agent);
    return agent;
  }

  const runsOf = (agent: DurableHttpAgent) => runs.get(agent) ?? [];
  const verdicts = (run: readonly BaseEvent[] | undefined) =>
    customEvents(run ?? [], DurableEventName.verdict) as VerdictDetail[];
  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  test.skipIf(unavailable !== undefined)(
    "approve: applied, the tool ran once, every run well formed",
    async () => {
      const agent = page("af-agent-approve");
      await say(agent, "please deploy to prod");
      expect(agent.pendingInterrupts).toHaveLength(1);
      expect(agent.client.connection.getState().serverKind).toBe("degraded");

      await agent.runAgent(resumeWith(agent, { approved: true }));

      const answered = runsOf(agent)[1];
      expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "applied" })]);
      expect(lastEvent(answered)).toMatchObject({ type: "RUN_FINISHED" });
      expect(agent.pendingInterrupts).toEqual([]);
      expect(await executions("af-agent-approve")).toHaveLength(1);
      await verifySequence(runsOf(agent).flat());
    },
  );

  test.skipIf(unavailable !== undefined)("reject: applied, and the tool never ran", async () => {
    const agent = page("af-agent-reject");
    await say(agent, "please deploy to prod");
    await agent.runAgent(resumeWith(agent, { approved: false }));

    expect(verdicts(runsOf(agent)[1])).toEqual([expect.objectContaining({ verdict: "applied" })]);
    expect(await executions("af-agent-reject")).toEqual([]);
    await verifySequence(runsOf(agent).flat());
  });

  test.skipIf(unavailable !== undefined)(
    "reload while the answer is in flight: the new page reaches a verdict and shows no open card",
    async () => {
      let markReached = () => {};
      const reached = new Promise<void>((resolve) => {
        markReached = resolve;
      });
      // The resume reaches the server and runs; its answer never reaches the page.
      const lostAnswers = (input: string, init?: RequestInit): Promise<Response> => {
        const body = typeof init?.body === "string" ? init.body : "";
        if (!body.includes('"resume"')) return fetch(input, init);
        return fetch(input, init).then(async (response) => {
          await response.text();
          markReached();
          return new Promise<Response>(() => {});
        });
      };
      const before = page("af-agent-reload", lostAnswers);
      await say(before, "please deploy to prod");
      void before.runAgent(resumeWith(before, { approved: true }));
      await reached;
      before.client.dispose();

      const after = page("af-agent-reload");
      await after.connectAgent();

      const [connected] = runsOf(after);
      // Without the contract: the current release replays the identical resend, the
      // reported one answers NOT_FOUND and the thread shows the tool's result. Either way
      // the tool ran once and the resend did not run it again.
      expect(verdicts(connected)).toEqual([expect.objectContaining({ verdict: "applied" })]);
      expect(after.pendingInterrupts).toEqual([]);
      expect(await executions("af-agent-reload")).toHaveLength(1);
      await verifySequence(runsOf(after).flat());
    },
  );
});
