import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MetadataKey } from "@agui-outbox/core/protocol";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type ContractServer, createContractServer, MemoryStore } from "../src/index";
import { ContractClient, pollBackground, readJson, resumeBody } from "./support/contract-client";
import { type Ledger, memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";
import { backgroundStart, scriptedBackgroundAgent } from "./support/scripted-background";

// A background response that ends with an interrupt: the run waits for the person, the
// answer is an ordinary resume (which runs an approved tool once), and the run goes on.

const store = new MemoryStore();
const ledger: Ledger = memoryLedger();
const background = scriptedBackgroundAgent();
let contract: ContractServer;
let http: Server;
let url: string;
let client: ContractClient;

beforeAll(async () => {
  const { agent, tools } = scriptedDeployAgent(ledger, { holdMs: 1_500 });
  contract = createContractServer({ store, agent, tools, background, sweepIntervalMs: 0 });
  http = createServer(contract.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  client = new ContractClient(url);
});

afterAll(async () => {
  await contract.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

interface Question {
  readonly id: string;
  readonly toolCallId?: string;
  readonly metadata?: Record<string, unknown>;
}

/** Starts `[ask] deploy prod` and polls once: the run stops at its question. */
async function askInBackground() {
  const threadId = `thread-${randomUUID()}`;
  const runId = `bg-${randomUUID()}`;
  const started = await readJson(await client.post(backgroundStart(threadId, runId, "[ask] deploy prod")));
  const asked = await pollBackground(url, String(started.body.continuationToken));
  const last = asked.body.events?.at(-1) as { type: string; outcome?: { interrupts?: Question[] } };
  const question = last.outcome?.interrupts?.[0];
  if (question === undefined) throw new Error(`no question: ${JSON.stringify(asked.body)}`);
  return { threadId, runId, asked, question, token: String(asked.body.continuationToken) };
}

async function answer(threadId: string, interruptId: string, payload: unknown) {
  const key = randomUUID();
  return client.run(resumeBody(threadId, `resume-${randomUUID()}`, interruptId, key, payload), key);
}

test("a response ending in an interrupt pauses the run: nothing runs, polls hand out nothing, a reload finds the question", async () => {
  const { threadId, runId, asked, question, token } = await askInBackground();
  expect(asked.status).toBe(200);
  expect(asked.body.status).toBe("interrupted");
  expect(asked.body.events?.map((event) => event.type)).toContain("TOOL_CALL_START");
  expect(question.toolCallId).toBe(`call-${runId}`);
  expect(question.metadata?.[MetadataKey.background]).toEqual({ runId });
  expect(await ledger.entries(threadId)).toHaveLength(0);

  const again = await pollBackground(url, token);
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ status: "interrupted", continuationToken: token, events: [] });
  // The run status does not read the question's RUN_FINISHED as the end of the run.
  const status = (await (await client.status(runId)).json()) as { terminal: unknown; status: string };
  expect(status).toMatchObject({ status: "running", terminal: null, continuationToken: token });
  // A hydration (what a reloaded page does) shows the question as any other open one.
  const hydration = await client.run({
    threadId,
    runId: `h-${randomUUID()}`,
    messages: [],
    tools: [],
    context: [],
  });
  const finished = hydration.events.at(-1) as { outcome?: { interrupts?: Question[] } };
  expect(finished.outcome?.interrupts?.map((open) => open.id)).toEqual([question.id]);
  expect(await ledger.entries(threadId)).toHaveLength(0);
});

test("approved: the resume runs the tool once without the agent; the next poll submits its result and the run completes", async () => {
  const { threadId, runId, question, token } = await askInBackground();
  const resumed = await answer(threadId, question.id, { approved: true });
  expect(resumed.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  expect(await ledger.entries(threadId)).toHaveLength(1);

  const goes = await pollBackground(url, token);
  expect(goes.body.status).toBe("in_progress");
  expect(goes.body.events?.[0]?.type).toBe("RUN_STARTED");
  const submitted = background.submissions.filter((submission) => submission.runId === runId);
  expect(submitted.map((submission) => submission.results.map((result) => result.content))).toEqual([
    ["deployed to prod"],
  ]);
  const done = await pollBackground(url, String(goes.body.continuationToken));
  expect(done.body.status).toBe("completed");
  expect(JSON.stringify(done.body.events)).toContain("Done: deployed to prod");
  expect(await ledger.entries(threadId)).toHaveLength(1);
});

test("rejected: nothing runs, and the model hears that the call did not run", async () => {
  const { threadId, runId, question, token } = await askInBackground();
  const resumed = await answer(threadId, question.id, { approved: false });
  expect(resumed.types).toEqual(["RUN_STARTED", "RUN_FINISHED"]);

  const goes = await pollBackground(url, token);
  const done = await pollBackground(url, String(goes.body.continuationToken));
  expect(done.body.status).toBe("completed");
  const submitted = background.submissions.filter((submission) => submission.runId === runId);
  expect(submitted[0]?.results.map((result) => JSON.parse(result.content))).toEqual([
    { ran: false, answer: "rejected" },
  ]);
  expect(await ledger.entries(threadId)).toHaveLength(0);
});

test("a response without an interrupt runs its tool in the poll, as before", async () => {
  const threadId = `thread-${randomUUID()}`;
  const started = await readJson(
    await client.post(backgroundStart(threadId, `bg-${randomUUID()}`, "deploy prod")),
  );
  const polled = await pollBackground(url, String(started.body.continuationToken));
  expect(polled.body.status).toBe("in_progress");
  expect(polled.body.events?.map((event) => event.type)).toContain("TOOL_CALL_RESULT");
  expect(await ledger.entries(threadId)).toHaveLength(1);
});
