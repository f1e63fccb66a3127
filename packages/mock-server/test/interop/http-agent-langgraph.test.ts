import { randomUUID } from "node:crypto";
import { type BaseEvent, buildResumeArray, HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { langGraphPeerUnavailableReason, startLangGraphPeer } from "./langgraph-peer";
import type { PythonPeer } from "./python-peer";

// The official AG-UI client (@ag-ui/client's HttpAgent) against the real LangGraph AG-UI
// adapter: its pipeline verifies every event (order, open messages and tool calls, one
// run per stream), so a stream it rejects rejects `runAgent`. What our SDK reads from
// this server must be what the official client accepts.

const unavailable = langGraphPeerUnavailableReason();
if (unavailable) console.warn(`skipped: ${unavailable}`);

const typesOf = (events: readonly BaseEvent[]) => events.map((event) => event.type);

describe.skipIf(unavailable !== undefined)("HttpAgent against LangGraph (ag-ui-langgraph)", () => {
  let peer: PythonPeer;
  beforeAll(async () => {
    peer = await startLangGraphPeer();
  }, 100_000);
  afterAll(async () => {
    await peer?.close();
  });

  async function askedToDeploy(threadId: string) {
    const agent = new HttpAgent({
      url: `${peer.url}/agent`,
      threadId,
      initialMessages: [{ id: randomUUID(), role: "user", content: "please deploy to prod" }],
    });
    const events: BaseEvent[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
    return { agent, events };
  }

  async function answer(agent: HttpAgent, approved: boolean) {
    const interrupt = agent.pendingInterrupts[0];
    const resume = buildResumeArray(agent.pendingInterrupts, {
      [interrupt?.id ?? ""]: { status: "resolved", payload: { approved } },
    });
    const events: BaseEvent[] = [];
    await agent.runAgent(
      { runId: randomUUID(), resume },
      { onEvent: ({ event }) => void events.push(event) },
    );
    return events;
  }

  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  test("its run passes verification and leaves the interrupt pending, with the tool call", async () => {
    const { agent, events } = await askedToDeploy("official-lg-run");
    expect(typesOf(events)[0]).toBe("RUN_STARTED");
    expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
    expect(agent.pendingInterrupts).toHaveLength(1);
    expect(agent.pendingInterrupts[0]?.toolCallId).toBe("deploy-official-lg-run");
  });

  test("its approval stream passes verification; the tool ran once", async () => {
    const { agent } = await askedToDeploy("official-lg-approve");
    const events = await answer(agent, true);
    expect(typesOf(events)).toContain("TOOL_CALL_RESULT");
    expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
    expect(agent.pendingInterrupts).toEqual([]);
    expect(await executions("official-lg-approve")).toHaveLength(1);
  });

  test("its reject stream passes verification; nothing ran, the rejection is in its messages", async () => {
    const { agent } = await askedToDeploy("official-lg-reject");
    const events = await answer(agent, false);
    expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
    expect(await executions("official-lg-reject")).toHaveLength(0);
    const tool = agent.messages.find((message) => message.role === "tool");
    expect(tool?.content).toMatch(/^User rejected the tool call for `deploy_change`/);
  });
});
