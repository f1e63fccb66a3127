import { randomUUID } from "node:crypto";
import { type BaseEvent, buildResumeArray, HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type AgentFrameworkPeer,
  type PeerRelease,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "./agent-framework-peer";

// The official AG-UI client (@ag-ui/client's HttpAgent) against the real Agent Framework
// endpoint, both releases: its pipeline verifies every event (order, open messages and
// tool calls, one run per stream), so a stream it rejects rejects `runAgent`. What our
// SDK reads from these servers must be what the official client accepts.

for (const release of ["current", "reported"] as const) {
  const reason = peerUnavailableReason(release);
  if (reason) console.warn(`skipped: ${reason}`);
}

const typesOf = (events: readonly BaseEvent[]) => events.map((event) => event.type);

describe.each(["current", "reported"] as const)(
  "HttpAgent against Agent Framework, %s release",
  (release: PeerRelease) => {
    const unavailable = peerUnavailableReason(release);
    let peer: AgentFrameworkPeer;
    beforeAll(async () => {
      if (unavailable === undefined) peer = await startAgentFrameworkPeer(release);
    }, 40_000);
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

    /** Answers the open interrupt with the decision flags its schema declares. */
    async function answer(agent: HttpAgent, approved: boolean) {
      const interrupt = agent.pendingInterrupts[0];
      const declared = Object.keys(
        (interrupt?.responseSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
      );
      const payload = Object.fromEntries(
        ["approved", "accepted"].filter((flag) => declared.includes(flag)).map((flag) => [flag, approved]),
      );
      const resume = buildResumeArray(agent.pendingInterrupts, {
        [interrupt?.id ?? ""]: { status: "resolved", payload },
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

    test.skipIf(unavailable !== undefined)(
      "its run passes verification and leaves the interrupt pending",
      async () => {
        const { agent, events } = await askedToDeploy("official-af-run");
        expect(typesOf(events)[0]).toBe("RUN_STARTED");
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(agent.pendingInterrupts).toHaveLength(1);
      },
    );

    test.skipIf(unavailable !== undefined)(
      "its approval stream passes verification; the tool ran once",
      async () => {
        const { agent } = await askedToDeploy("official-af-approve");
        const events = await answer(agent, true);
        expect(typesOf(events)).toContain("TOOL_CALL_RESULT");
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(agent.pendingInterrupts).toEqual([]);
        expect(await executions("official-af-approve")).toHaveLength(1);
      },
    );

    test.skipIf(unavailable !== undefined)(
      "its reject stream passes verification; nothing ran, the rejection is in the thread",
      async () => {
        const { agent } = await askedToDeploy("official-af-reject");
        const events = await answer(agent, false);
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(await executions("official-af-reject")).toHaveLength(0);
        const tool = agent.messages.find((message) => message.role === "tool");
        expect(tool?.content).toBe("Error: Tool call invocation was rejected by user.");
      },
    );
  },
);
