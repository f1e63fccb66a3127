import { randomUUID } from "node:crypto";
import { type BaseEvent, buildResumeArray, HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type PydanticAiHistory,
  type PydanticAiPeer,
  pydanticAiPeerUnavailableReason,
  startPydanticAiPeer,
} from "./pydantic-ai-peer";

// The official AG-UI client (@ag-ui/client's HttpAgent) against pydantic-ai's real AG-UI
// adapter, with the conversation held by the server and by the client (HttpAgent sends
// every message it holds, which is what the adapter's default expects). Its pipeline
// verifies every event, so a stream it rejects rejects `runAgent`.

const unavailable = pydanticAiPeerUnavailableReason();
if (unavailable) console.warn(`skipped: ${unavailable}`);

const typesOf = (events: readonly BaseEvent[]) => events.map((event) => event.type);

describe.each(["server", "client"] as const)(
  "HttpAgent against pydantic-ai, history held by the %s",
  (history: PydanticAiHistory) => {
    let peer: PydanticAiPeer;
    beforeAll(async () => {
      if (unavailable === undefined) peer = await startPydanticAiPeer(history);
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

    test.skipIf(unavailable !== undefined)(
      "its run passes verification and leaves int-<toolCallId> pending",
      async () => {
        const { agent, events } = await askedToDeploy(`official-pyd-run-${history}`);
        expect(typesOf(events)[0]).toBe("RUN_STARTED");
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(agent.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual([
          `int-deploy-official-pyd-run-${history}`,
        ]);
      },
    );

    test.skipIf(unavailable !== undefined)(
      "its approval stream passes verification; the tool ran once",
      async () => {
        const threadId = `official-pyd-approve-${history}`;
        const { agent } = await askedToDeploy(threadId);
        const events = await answer(agent, true);
        expect(typesOf(events)).toContain("TOOL_CALL_RESULT");
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(agent.pendingInterrupts).toEqual([]);
        expect(await executions(threadId)).toHaveLength(1);
      },
    );

    test.skipIf(unavailable !== undefined)(
      "its reject stream passes verification; nothing ran, the denial is in the thread",
      async () => {
        const threadId = `official-pyd-reject-${history}`;
        const { agent } = await askedToDeploy(threadId);
        const events = await answer(agent, false);
        expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
        expect(await executions(threadId)).toHaveLength(0);
        const tool = agent.messages.find((message) => message.role === "tool");
        expect(tool?.content).toBe("The tool call was denied.");
      },
    );
  },
);
