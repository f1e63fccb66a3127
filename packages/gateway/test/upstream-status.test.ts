import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ContractClient, resumeBody, userTurn } from "../../server/test/support/contract-client";
import {
  asks,
  type FakeUpstream,
  result,
  started,
  startFakeUpstream,
  finished as success,
} from "./support/fake-upstream";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// An upstream that refuses the caller's credentials is answered with that status
// (issue 33): the client pauses for a new sign-in on 401/403 and would otherwise retry
// a SERVICE_UNAVAILABLE that can never succeed.

/** The credentials the fake upstream accepts now. */
let accepted = "Bearer fresh";
let upstream: FakeUpstream;
let running: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream((request) => {
    if (request.headers.authorization === "Bearer forbidden") return { status: 403 };
    if (request.headers.authorization !== accepted) return { status: 401 };
    if (request.body.resume !== undefined)
      return { events: [started(request), result(request), success(request)] };
    return { events: asks(request) };
  });
  running = await startGateway(upstream.url);
});

afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const resumesOf = (threadId: string) =>
  upstream.requests.filter((request) => request.body.threadId === threadId && request.body.resume);

test("a resume whose credentials the upstream refuses: HTTP 401; the same key, signed in again, runs once", async () => {
  const threadId = `t-${randomUUID()}`;
  accepted = "Bearer fresh";
  const asked = await new ContractClient(running.url, { authorization: "Bearer fresh" }).askToDeploy(
    threadId,
    "deploy prod",
  );
  const key = randomUUID();
  const body = resumeBody(threadId, `resume-${key}`, asked.interruptId, key);
  accepted = "Bearer renewed";

  const refused = await new ContractClient(running.url, { authorization: "Bearer fresh" }).post(body, key);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ code: "UPSTREAM_UNAUTHORIZED" });

  const again = await new ContractClient(running.url, { authorization: "Bearer renewed" }).run(body, key);
  expect(again.types).toEqual(["RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED"]);
  expect(resumesOf(threadId)).toHaveLength(2);
});

test("a user turn the upstream forbids: HTTP 403", async () => {
  const response = await new ContractClient(running.url, { authorization: "Bearer forbidden" }).post(
    userTurn(`t-${randomUUID()}`, `turn-${randomUUID()}`, "deploy prod"),
  );
  expect(response.status).toBe(403);
  expect(await response.json()).toMatchObject({ code: "UPSTREAM_FORBIDDEN" });
});
