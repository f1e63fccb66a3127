import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ContractClient, resumeBody } from "../../server/test/support/contract-client";
import {
  type FakeUpstream,
  finished,
  result,
  started,
  startFakeUpstream,
  type UpstreamRequest,
} from "./support/fake-upstream";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// Agent Framework 1.0.1 asks with a closed schema declaring `accepted` alone and
// refuses anything else; the contract's answer is `{approved, editedArgs}` (issue 33).
// The gateway takes the contract's answer and sends the upstream its own.

/** The 1.0.1 interrupt's schema, as that release publishes it. */
const CLOSED = {
  type: "object",
  properties: { accepted: { type: "boolean" }, target: { type: "string" } },
  required: ["accepted"],
  additionalProperties: false,
};

function asksClosed(request: UpstreamRequest): Record<string, unknown>[] {
  const { threadId, runId } = request.body;
  const toolCallId = `call-${threadId}`;
  const interrupt = { id: toolCallId, reason: "tool_call", toolCallId, responseSchema: CLOSED };
  return [
    { type: "RUN_STARTED", threadId, runId },
    { type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: [interrupt] } },
  ];
}

let upstream: FakeUpstream;
let running: RunningGateway;
let client: ContractClient;

beforeAll(async () => {
  upstream = await startFakeUpstream((request) =>
    request.body.resume === undefined
      ? { events: asksClosed(request) }
      : { events: [started(request), result(request), finished(request)] },
  );
  running = await startGateway(upstream.url);
  client = new ContractClient(running.url);
});

afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const forwardedPayloads = (threadId: string) =>
  upstream.requests
    .filter((request) => request.body.threadId === threadId && request.body.resume)
    .map((request) => request.body.resume?.map((entry) => entry.payload));

test("clients are asked with the contract's flags beside the upstream's own", async () => {
  const asked = await client.askToDeploy(`t-${randomUUID()}`, "deploy prod");
  const ended = asked.reader.events.at(-1) as unknown as {
    outcome: { interrupts: { responseSchema?: Record<string, unknown> }[] };
  };
  const schema = ended.outcome.interrupts[0]?.responseSchema;
  expect(schema).toMatchObject({
    properties: { approved: { type: "boolean" }, accepted: { type: "boolean" }, target: { type: "string" } },
  });
  expect(schema?.required ?? []).not.toContain("accepted");
});

test("the contract's approval with edits reaches the upstream as its closed schema asks", async () => {
  const threadId = `t-${randomUUID()}`;
  const asked = await client.askToDeploy(threadId, "deploy prod");
  const key = randomUUID();
  const payload = { approved: true, accepted: true, editedArgs: { target: "staging" } };
  const reply = await client.run(resumeBody(threadId, `r-${key}`, asked.interruptId, key, payload), key);
  expect(reply.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  expect(forwardedPayloads(threadId)).toEqual([[{ accepted: true, target: "staging" }]]);
});

test("a rejection as `{approved: false}` alone reaches it as `{accepted: false}`", async () => {
  const threadId = `t-${randomUUID()}`;
  const asked = await client.askToDeploy(threadId, "deploy prod");
  const key = randomUUID();
  await client.run(resumeBody(threadId, `r-${key}`, asked.interruptId, key, { approved: false }), key);
  expect(forwardedPayloads(threadId)).toEqual([[{ accepted: false }]]);
});
