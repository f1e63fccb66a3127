import { randomUUID } from "node:crypto";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { ContractClient, resumeBody, userTurn } from "../../server/test/support/contract-client";
import {
  asks,
  type FakeUpstream,
  finished,
  result,
  type Script,
  started,
  startFakeUpstream,
  type UpstreamRequest,
} from "./support/fake-upstream";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// How the gateway settles an attempt by what the upstream's stream showed (issue 33):
// nothing began → forwarded again; began without the result → indeterminate, never
// "not run"; the result seen → a retry is answered from the record, never forwarded.

/** How the fake answers the next resumes, one script per request. */
let resumes: ((request: UpstreamRequest) => Script)[] = [];
let upstream: FakeUpstream;
let running: RunningGateway;
let client: ContractClient;

beforeAll(async () => {
  upstream = await startFakeUpstream((request) => {
    if (request.body.resume !== undefined) {
      const next = resumes.shift();
      if (next === undefined) throw new Error("no script for this resume");
      return next(request);
    }
    if (request.body.messages.length === 0) return { events: [started(request), finished(request)] };
    return { events: asks(request) };
  });
  running = await startGateway(upstream.url);
  client = new ContractClient(running.url, { authorization: "Bearer person-1" });
});

afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

beforeEach(() => {
  resumes = [];
});

const resumesOf = (threadId: string) =>
  upstream.requests.filter((request) => request.body.threadId === threadId && request.body.resume);

async function approve(threadId: string) {
  const asked = await client.askToDeploy(threadId, "deploy prod");
  const key = randomUUID();
  const body = resumeBody(threadId, `resume-${key}`, asked.interruptId, key);
  return { asked, key, body, first: await client.run(body, key) };
}

test("the upstream answering HTTP 503 before any event: the same key is forwarded again and runs once", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [
    () => ({ status: 503 }),
    (request) => ({ events: [started(request), result(request), finished(request)] }),
  ];
  const { key, body, first } = await approve(threadId);
  expect(first.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });

  const again = await client.run(body, key);
  expect(again.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  expect(resumesOf(threadId)).toHaveLength(2);
});

test("the stream cut after the upstream began, no result seen: INDETERMINATE, never forwarded again", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [(request) => ({ events: [started(request)], ending: "cut" })];
  const { asked, key, body, first } = await approve(threadId);
  expect(first.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });

  const again = await client.run(body, key);
  expect(again.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  // Another decision cannot turn it into "not run" either.
  const otherKey = randomUUID();
  const reject = resumeBody(threadId, `resume-${otherKey}`, asked.interruptId, otherKey, { approved: false });
  const other = await client.run(reject, otherKey);
  expect(other.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  expect(resumesOf(threadId)).toHaveLength(1);
});

test("the stream cut after the call's result: the retry is answered from the record, not forwarded", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [(request) => ({ events: [started(request), result(request)], ending: "cut" })];
  const { key, body, first } = await approve(threadId);
  expect(first.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_ERROR"]);

  const again = await client.run(body, key);
  // The run's log already carries the result (the client read it, or re-attaches for it): not sent twice.
  expect(again.types).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect(first.events[1]).toMatchObject({ toolCallId: `call-${threadId}`, content: "Deployed to prod." });
  expect(resumesOf(threadId)).toHaveLength(1);
  // Settled now: the identical resend is the replay.
  const replay = await client.run(body, key);
  expect(replay.events.at(-1)).toMatchObject({ metadata: { "x-resume": { replayed: true } } });
  expect(resumesOf(threadId)).toHaveLength(1);
});

test("the upstream says nothing ran after it began (RUN_STARTED, then APPROVAL_TOOL_UNAVAILABLE): forwarded again, runs once", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [
    (request) => ({
      events: [
        started(request),
        { type: "RUN_ERROR", code: OutcomeCode.TOOL_UNAVAILABLE, message: "no tool" },
      ],
    }),
    (request) => ({ events: [started(request), result(request), finished(request)] }),
  ];
  const { key, body, first } = await approve(threadId);
  expect(first.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });

  const again = await client.run(body, key);
  expect(again.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  expect(resumesOf(threadId)).toHaveLength(2);
});

test("the upstream no longer holds a question it asked (Agent Framework 1.0.1 after a failure): INDETERMINATE, never forwarded again", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [
    // 1.0.1 runs the tool at ingress; the model call after it fails: a bare RUN_ERROR.
    () => ({ events: [{ type: "RUN_ERROR", code: "RuntimeError", message: "model down" }] }),
    () => ({ events: [{ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND, message: "no pending approval" }] }),
  ];
  const { key, body, first } = await approve(threadId);
  expect(first.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });

  const again = await client.run(body, key);
  expect(again.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  const third = await client.run(body, key);
  expect(third.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  expect(resumesOf(threadId)).toHaveLength(2);
});

test("an upstream RUN_ERROR after it began is a retryable SERVICE_UNAVAILABLE carrying its words", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [
    (request) => ({
      events: [started(request), { type: "RUN_ERROR", code: "RuntimeError", message: "model down" }],
    }),
  ];
  const { first } = await approve(threadId);
  expect(first.events.at(-1)).toMatchObject({
    type: "RUN_ERROR",
    code: OutcomeCode.UNAVAILABLE,
    message: "the upstream agent failed (RuntimeError): model down",
  });
});

test("Authorization and the Idempotency-Key reach the upstream; the caller's ids are kept", async () => {
  const threadId = `t-${randomUUID()}`;
  resumes = [(request) => ({ events: [started(request), result(request), finished(request)] })];
  const { key } = await approve(threadId);
  const [forwarded] = resumesOf(threadId);
  expect(forwarded?.headers.authorization).toBe("Bearer person-1");
  expect(forwarded?.headers["idempotency-key"]).toBe(key);
  expect(forwarded?.body).toMatchObject({ threadId, runId: `resume-${key}` });
});

test("two turns of one thread at once reach the upstream one after the other", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const slow = await startFakeUpstream((request) => ({
    hold: gate,
    events: [started(request), finished(request)],
  }));
  const behind = await startGateway(slow.url);
  try {
    const gatewayClient = new ContractClient(behind.url);
    const threadId = `t-${randomUUID()}`;
    const turns = [1, 2].map((n) =>
      gatewayClient.open(userTurn(threadId, `turn-${n}-${randomUUID()}`, "hello")),
    );
    // The second turn's response waits for the upstream (its status is the upstream's), so only the first is read now.
    const first = await turns[0];
    await first?.waitFor((reader) => reader.frames.length >= 1);
    open();
    const readers = await Promise.all(turns);
    await Promise.all(readers.map((reader) => reader.done));
    expect(slow.requests).toHaveLength(2);
    expect(slow.concurrency.max).toBe(1);
  } finally {
    await behind.close();
    await slow.close();
  }
});
