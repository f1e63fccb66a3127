import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SseReader } from "../../mock-server/test/support/sse-reader";
import {
  BackgroundCallState,
  type BackgroundRunRecord,
  type ContractServer,
  createContractServer,
  MemoryStore,
} from "../src/index";
import { ContractClient, pollBackground, readJson } from "./support/contract-client";
import { type Ledger, memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";
import { backgroundStart, listFaults, scriptedBackgroundAgent } from "./support/scripted-background";

const LEASE_MS = 10_000;
let skewMs = 0;
const store = new MemoryStore({ now: () => Date.now() + skewMs });
const ledger: Ledger = memoryLedger();
const faults = listFaults();
const background = scriptedBackgroundAgent(faults);
let contract: ContractServer;
let http: Server;
let url: string;
let client: ContractClient;

beforeAll(async () => {
  const { agent, tools } = scriptedDeployAgent(ledger, { holdMs: 1_500 });
  contract = createContractServer({
    store,
    agent,
    tools,
    background,
    claimLeaseMs: LEASE_MS,
    sweepIntervalMs: 0,
  });
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

async function start(words: string, key?: string) {
  const threadId = `thread-${randomUUID()}`;
  const runId = `bg-${randomUUID()}`;
  const started = await readJson(await client.post(backgroundStart(threadId, runId, words), key));
  expect(started.status).toBe(202);
  return { threadId, runId, token: String(started.body.continuationToken), started };
}

describe("background runs on the library", () => {
  test("re-polling with the held token after a failed submission resubmits the stored result: the tool ran once", async () => {
    const { threadId, runId, token } = await start("deploy prod");
    faults.arm(threadId, "background-submit", "status");
    const failed = await pollBackground(url, token);
    expect(failed.status).toBe(503);
    expect(await ledger.entries(threadId)).toHaveLength(1);

    const again = await pollBackground(url, token);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("in_progress");
    expect(again.body.continuationToken).not.toBe(token);
    expect(await ledger.entries(threadId)).toHaveLength(1);
    // Both submissions carried the one stored result.
    const submitted = background.submissions.filter((s) => s.runId === runId).map((s) => s.results);
    expect(submitted).toHaveLength(2);
    expect(submitted[1]).toEqual(submitted[0]);
    // The re-poll's answer has the step's events once each, the stored result among them.
    const results = again.body.events?.filter((event) => event.type === "TOOL_CALL_RESULT") ?? [];
    expect(results.map((event) => event.messageId)).toEqual([submitted[0]?.[0]?.messageId]);

    const last = await pollBackground(url, String(again.body.continuationToken));
    expect(last.body).toMatchObject({ status: "completed", continuationToken: null, error: null });
    expect(last.body.events?.at(-1)?.type).toBe("RUN_FINISHED");
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("a submission the model defers (429, Retry-After) answers the poll with that 429 and Retry-After; the re-poll resubmits, the tool ran once", async () => {
    const { threadId, token } = await start("deploy prod");
    faults.arm(threadId, "background-submit", "rate-limited");
    const deferred = await pollBackground(url, token);
    expect(deferred.status).toBe(429);
    expect(deferred.headers.get("retry-after")).toBe("3");
    expect(deferred.body).toMatchObject({ error: { code: OutcomeCode.RATE_LIMITED } });
    const again = await pollBackground(url, token);
    expect(again.body.status).toBe("in_progress");
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("a submission refused for good fails the run with BACKGROUND_TOOL_DELIVERY_REJECTED; the tool ran once", async () => {
    const { threadId, token } = await start("deploy prod");
    faults.arm(threadId, "background-submit", "fail");
    const polled = await pollBackground(url, token);
    expect(polled.body).toMatchObject({
      status: "failed",
      continuationToken: null,
      error: { code: OutcomeCode.BACKGROUND_TOOL_DELIVERY_REJECTED },
    });
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("a poll that died mid-tool (lease lapsed, no result): the next poll is INDETERMINATE and never runs it again", async () => {
    const { runId, token } = await start("deploy prod");
    const read = (await store.background(runId)) as BackgroundRunRecord;
    const call = {
      toolCallId: `call-${runId}`,
      toolName: "deploy",
      args: { target: "prod" },
      state: BackgroundCallState.executing,
      result: null,
    };
    const now = await store.now();
    await store.updateBackground({
      ...read,
      calls: [call],
      poll: { pollId: "dead", leaseUntil: now + LEASE_MS },
    });
    expect((await pollBackground(url, token)).body.error?.code).toBe(OutcomeCode.BACKGROUND_POLL_IN_PROGRESS);
    skewMs += LEASE_MS + 1;
    const polled = await pollBackground(url, token);
    expect(polled.body).toMatchObject({
      status: "failed",
      error: { code: OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE },
    });
    expect((await store.background(runId))?.calls?.[0]?.state).toBe(BackgroundCallState.indeterminate);
    expect(await ledger.entries(read.threadId)).toHaveLength(0);
  });

  test("a second poll while one runs is BACKGROUND_POLL_IN_PROGRESS; the tool runs once", async () => {
    const { threadId, token } = await start("deploy prod [slow-tool]");
    const first = pollBackground(url, token);
    for (let tries = 0; (await ledger.entries(threadId)).length === 0 && tries < 200; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const second = await pollBackground(url, token);
    expect(second.status).toBe(409);
    expect(second.body.error?.code).toBe(OutcomeCode.BACKGROUND_POLL_IN_PROGRESS);
    expect((await first).status).toBe(200);
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("a tool that throws mid-run ends the run INDETERMINATE; it is not run again", async () => {
    const { threadId, token } = await start("deploy prod [tool-throws]");
    const polled = await pollBackground(url, token);
    expect(polled.body.error?.code).toBe(OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE);
    expect((await pollBackground(url, token)).body.status).toBe("failed");
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("tokens: a stale one is 409, the final one repeats its answer, an unknown one is 404, a bad body 400", async () => {
    const { token } = await start("deploy staging");
    const next = String((await pollBackground(url, token)).body.continuationToken);
    expect((await pollBackground(url, token)).body.error?.code).toBe(OutcomeCode.BACKGROUND_TOKEN_STALE);
    const final = await pollBackground(url, next);
    expect(final.body.status).toBe("completed");
    expect((await pollBackground(url, next)).body).toEqual(final.body);
    const unknown = await pollBackground(url, "bgt_nobody");
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, OutcomeCode.BACKGROUND_TOKEN_UNKNOWN]);
    const bad = await fetch(`${url}/agent/background/poll`, { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);
  });

  test("a start repeated under its Idempotency-Key gets the same run and token; another body under it gets 422", async () => {
    const key = randomUUID();
    const threadId = `thread-${randomUUID()}`;
    const body = backgroundStart(threadId, `bg-${randomUUID()}`, "deploy prod");
    const first = await readJson(await client.post(body, key));
    const again = await readJson(await client.post(body, key));
    expect(again).toEqual(first);
    const other = await readJson(await client.post({ ...body, runId: `bg-${randomUUID()}` }, key));
    expect([other.status, other.body.error?.code]).toEqual([422, OutcomeCode.IDEMPOTENCY_KEY_REUSED]);
  });

  test("capabilities publish the poll path; the run's status shows the token to poll with", async () => {
    const capabilities = await (await fetch(`${url}/agent/capabilities`)).json();
    expect(capabilities.custom["x-recovery"].background).toEqual({ pollPath: "/agent/background/poll" });
    const { runId, token, started } = await start("hello");
    expect(started.body.events?.[0]?.metadata).toMatchObject({
      "x-background": { continuationToken: token, pollPath: "/agent/background/poll" },
    });
    const status = await (await client.status(runId)).json();
    expect(status).toMatchObject({ runId, status: "running", continuationToken: token, lastSeq: 1 });
    expect((await pollBackground(url, token)).body.status).toBe("completed");
    expect(await (await client.status(runId)).json()).toMatchObject({
      status: "finished",
      continuationToken: null,
    });
  });

  test("a background run's log re-attaches after a cursor: every later event once, in order", async () => {
    const { runId, token } = await start("deploy prod");
    const polled = await pollBackground(url, token);
    const lastSeq = Number(polled.body.lastSeq);
    const tail = new SseReader(await client.attach(runId, `${runId}:1`));
    await tail.done;
    expect(tail.frames.map((frame) => frame.id)).toEqual(
      Array.from({ length: lastSeq - 1 }, (_, index) => `${runId}:${index + 2}`),
    );
    expect(tail.types).toContain("TOOL_CALL_RESULT");
    expect((await client.attach(runId, "other-run:1")).status).toBe(400);
  });
});
