import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AbstractAgent, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { Observable } from "rxjs";
import { expect, test } from "vitest";
import { createContractServer, fromAbstractAgent, MemoryStore } from "../src/index";
import { ContractClient, resumeBody } from "./support/contract-client";
import { memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";

/** A real `@ag-ui/client` agent: its `run` is an Observable, as every AG-UI TypeScript agent's is. */
class ObservableDeployAgent extends AbstractAgent {
  readonly seen: RunAgentInput[] = [];

  run(input: RunAgentInput): Observable<BaseEvent> {
    this.seen.push(input);
    return new Observable<BaseEvent>((subscriber) => {
      const { threadId, runId } = input;
      const toolMessage = input.messages.find((message) => message.role === "tool");
      if (toolMessage !== undefined) {
        subscriber.next({ type: "RUN_STARTED", threadId, runId } as BaseEvent);
        subscriber.next({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as BaseEvent);
        subscriber.complete();
        return;
      }
      const toolCallId = `call-${runId}`;
      for (const event of [
        { type: "RUN_STARTED", threadId, runId },
        { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy" },
        { type: "TOOL_CALL_ARGS", toolCallId, delta: '{"target":"prod"}' },
        { type: "TOOL_CALL_END", toolCallId },
        {
          type: "RUN_FINISHED",
          threadId,
          runId,
          outcome: {
            type: "interrupt",
            interrupts: [{ id: `approve-${toolCallId}`, reason: "tool_approval", toolCallId }],
          },
        },
      ]) {
        subscriber.next(event as BaseEvent);
      }
      subscriber.complete();
    });
  }
}

test("an @ag-ui/client AbstractAgent runs under the contract: claimed, the tool once, its result in the next turn", async () => {
  const ledger = memoryLedger();
  const { tools } = scriptedDeployAgent(ledger);
  const agent = new ObservableDeployAgent();
  const server = createContractServer({ store: new MemoryStore(), agent: fromAbstractAgent(agent), tools });
  const http = createServer(server.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  try {
    const client = new ContractClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
    const asked = await client.askToDeploy("t-abstract", "deploy prod");
    const body = resumeBody("t-abstract", "resume-1", asked.interruptId, "k-1");
    const first = await client.run(body, "k-1");
    expect(first.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
    const again = await client.run(body, "k-1");
    expect(again.types.at(-1)).toBe("RUN_FINISHED");
    expect(await ledger.entries("t-abstract")).toHaveLength(1);
    expect(agent.seen.at(-1)?.messages.at(-1)).toMatchObject({ role: "tool", content: "deployed to prod" });
  } finally {
    await server.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});
