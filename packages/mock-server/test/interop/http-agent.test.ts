import { randomUUID } from "node:crypto";
import { type BaseEvent, buildResumeArray, HttpAgent } from "@ag-ui/client";
import { Header, MetadataKey } from "@agui-outbox/core/protocol";
import { afterEach, expect, test } from "vitest";
import { type MockServer, startMockServer } from "../../src/index";

// The official AG-UI client (@ag-ui/client's HttpAgent) against our mock server. Its
// pipeline parses, verifies (event order, open messages and tool calls, one run per
// stream) and applies every event; a run it rejects rejects `runAgent`. Our run, resume,
// replay and re-attach streams must all pass it.

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function mock(): Promise<MockServer> {
  const server = await startMockServer({ port: 0, toolDurationMs: 5 });
  servers.push(server);
  return server;
}

/** An HttpAgent on a thread that has asked to deploy, with the interrupt still open. */
async function askedToDeploy(server: MockServer, threadId: string) {
  const agent = new HttpAgent({
    url: `${server.url}/agent`,
    threadId,
    initialMessages: [{ id: randomUUID(), role: "user", content: "please deploy to prod" }],
  });
  const events: BaseEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return { agent, events };
}

const typesOf = (events: readonly BaseEvent[]) => events.map((event) => event.type);
const ledger = async (server: MockServer) =>
  ((await (await fetch(`${server.url}/__ledger`)).json()) as { executions: unknown[] }).executions;

/** Resumes the agent's open interrupt with an approval under a fresh idempotency key. */
async function approve(agent: HttpAgent, runId = randomUUID(), key = randomUUID()) {
  agent.headers = { ...agent.headers, [Header.idempotencyKey]: key };
  const resume = buildResumeArray(agent.pendingInterrupts, {
    [agent.pendingInterrupts[0]?.id ?? ""]: {
      status: "resolved",
      payload: { approved: true },
      metadata: { [MetadataKey.idempotencyKey]: key },
    },
  });
  const events: BaseEvent[] = [];
  await agent.runAgent({ runId, resume }, { onEvent: ({ event }) => void events.push(event) });
  return { events, runId, key };
}

test("a run that asks for approval passes its verification and leaves the interrupt pending", async () => {
  const server = await mock();
  const { agent, events } = await askedToDeploy(server, "official-run");

  expect(typesOf(events)[0]).toBe("RUN_STARTED");
  expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
  expect(agent.pendingInterrupts).toHaveLength(1);
  expect(agent.pendingInterrupts[0]?.responseSchema).toBeDefined();
  const proposed = agent.messages.flatMap((message) =>
    "toolCalls" in message ? (message.toolCalls ?? []) : [],
  );
  expect(proposed.map((call) => call.function.name)).toEqual(["deploy_change"]);
});

test("a resume passes its verification: claim ack, tool result, finish; the tool ran once", async () => {
  const server = await mock();
  const { agent } = await askedToDeploy(server, "official-resume");

  const { events } = await approve(agent);

  const started = events.find((event) => event.type === "RUN_STARTED");
  expect(started?.metadata?.[MetadataKey.resume]).toMatchObject({ ack: "claimed" });
  expect(typesOf(events)).toContain("TOOL_CALL_RESULT");
  expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
  expect(agent.pendingInterrupts).toEqual([]);
  expect(await ledger(server)).toHaveLength(1);
});

test("a replay (the same request again) passes its verification, marked replayed, nothing runs again", async () => {
  const server = await mock();
  const { agent } = await askedToDeploy(server, "official-replay");
  // The same page state twice: the clone sends byte-identical bodies under one key.
  const again = agent.clone();
  const first = await approve(agent);

  const { events } = await approve(again, first.runId, first.key);

  const finished = events.find((event) => event.type === "RUN_FINISHED");
  expect(finished?.metadata?.[MetadataKey.resume]).toMatchObject({ replayed: true });
  expect(typesOf(events)).toContain("TOOL_CALL_RESULT");
  expect(await ledger(server)).toHaveLength(1);
});

test("a dropped stream and its re-attached rest make one run its verification accepts", async () => {
  const server = await mock();
  const { agent } = await askedToDeploy(server, "official-reattach");
  const threadId = agent.threadId;
  await fetch(`${server.url}/__chaos`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults: [{ point: "mid-stream", action: "drop", afterEvents: 2, threadId }] }),
  });

  // The official client sees, over one response, the frames the cut stream delivered and
  // then those the re-attach route sends after the last one: what a re-attaching client
  // hands on. Nothing may be missing or repeated for its verification to pass.
  const reattaching = new HttpAgent({
    url: `${server.url}/agent`,
    threadId,
    fetch: async (url, init) => {
      const cut = await fetch(url, init);
      let delivered = "";
      try {
        for await (const chunk of cut.body ?? []) delivered += new TextDecoder().decode(chunk);
      } catch {
        // the drop
      }
      const lastId = [...delivered.matchAll(/^id: (.+)$/gm)].at(-1)?.[1] ?? "";
      const runId = lastId.split(":")[0] ?? "";
      const rest = await fetch(`${server.url}/agent/runs/${runId}/events`, {
        headers: { [Header.lastEventId]: lastId, accept: "text/event-stream" },
      });
      return new Response(delivered + (await rest.text()), { headers: cut.headers });
    },
  });
  reattaching.messages = agent.messages;
  reattaching.pendingInterrupts = agent.pendingInterrupts;

  const { events } = await approve(reattaching);

  expect(typesOf(events).filter((type) => type === "RUN_STARTED")).toHaveLength(1);
  expect(typesOf(events).filter((type) => type === "TOOL_CALL_RESULT")).toHaveLength(1);
  expect(typesOf(events).at(-1)).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("the verification has teeth: a re-attach that repeats an event is rejected", async () => {
  const server = await mock();
  const { agent } = await askedToDeploy(server, "official-repeat");
  const repeating = new HttpAgent({
    url: `${server.url}/agent`,
    threadId: agent.threadId,
    fetch: async (url, init) => {
      const whole = await (await fetch(url, init)).text();
      // RUN_STARTED twice in one stream: what a re-attach from the wrong cursor would do.
      const first = whole.slice(0, whole.indexOf("\n\n") + 2);
      return new Response(first + whole, { headers: { "content-type": "text/event-stream" } });
    },
  });
  repeating.messages = agent.messages;
  repeating.pendingInterrupts = agent.pendingInterrupts;
  const quiet = console.error;
  console.error = () => {};
  try {
    await expect(approve(repeating)).rejects.toThrow();
  } finally {
    console.error = quiet;
  }
});
