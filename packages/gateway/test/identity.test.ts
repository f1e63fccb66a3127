import { randomUUID } from "node:crypto";
import { MetadataKey, OutcomeCode } from "@agui-outbox/core/protocol";
import { ServerCode } from "@agui-outbox/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningTarget, startMockTarget } from "../../mock-server/test/interop/interop-targets";
import { ContractClient, resumeBody } from "../../server/test/support/contract-client";
import { upstreamId } from "../src/index";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// Every route of the gateway is scoped by the identity its `identify` returns: another
// person's thread or run is answered as one that never existed, per route, and the
// upstream (which knows nothing of identities) never mixes two people's threads.

let upstream: RunningTarget;
let running: RunningGateway;
let alice: ContractClient;
let bob: ContractClient;

beforeAll(async () => {
  upstream = await startMockTarget("af-lifecycle");
  running = await startGateway(`${upstream.url}/agent`, {
    identify: (request) => {
      const user = request.headers["x-user"];
      return typeof user === "string" ? user : undefined;
    },
  });
  alice = new ContractClient(running.url, { "x-user": "alice" });
  bob = new ContractClient(running.url, { "x-user": "bob" });
});

afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const thread = () => `thread-${randomUUID()}`;
/** Executions the upstream's ledger shows for one person's thread. */
const executions = async (identity: string, threadId: string) =>
  (await upstream.ledger()).filter((entry) => entry.threadId === upstreamId(identity, threadId)).length;
/** A JSON answer with the runId masked, so a foreign run's answer compares with a never-seen one's. */
const answerOf = async (response: Response, runId: string) => ({
  status: response.status,
  body: (await response.text()).replaceAll(runId, "<run>"),
});

describe("another identity, per route", () => {
  test("no identity: 401 UNAUTHENTICATED on runs and reads, nothing forwarded", async () => {
    const nobody = new ContractClient(running.url);
    const before = (await upstream.ledger()).length;
    const response = await nobody.post({
      threadId: thread(),
      messages: [{ id: "m", role: "user", content: "deploy prod" }],
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: ServerCode.UNAUTHENTICATED } });
    expect((await nobody.status("any")).status).toBe(401);
    expect((await upstream.ledger()).length).toBe(before);
  });

  test("POST (hydration): another identity's thread shows what a thread that never existed shows", async () => {
    const threadId = thread();
    const asked = await alice.askToDeploy(threadId, "deploy prod");
    const foreign = await bob.run({ threadId, runId: `h-${randomUUID()}`, messages: [] });
    const never = await bob.run({ threadId: thread(), runId: `h-${randomUUID()}`, messages: [] });
    expect(foreign.types).toEqual(never.types);
    expect(JSON.stringify(foreign.events)).not.toContain(asked.interruptId);
  });

  test("GET status and GET events (re-attach): 404 exactly as a run that never existed", async () => {
    const { runId } = await alice.askToDeploy(thread(), "deploy prod");
    expect((await alice.status(runId)).status).toBe(200);
    const never = `turn-${randomUUID()}`;
    for (const read of [(id: string) => bob.status(id), (id: string) => bob.attach(id, `${id}:1`)]) {
      const foreign = await answerOf(await read(runId), runId);
      expect(foreign.status).toBe(404);
      expect(foreign).toEqual(await answerOf(await read(never), never));
    }
  });

  test("POST resume: another identity cannot answer; 0 executions, the owner's answer then runs once", async () => {
    const threadId = thread();
    const asked = await alice.askToDeploy(threadId, "deploy prod");
    const b = randomUUID();
    const stolen = await bob.run(resumeBody(threadId, `resume-${b}`, asked.interruptId, b), b);
    expect(stolen.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
    expect(await executions("alice", threadId)).toBe(0);

    const a = randomUUID();
    const own = await alice.run(resumeBody(threadId, `resume-${a}`, asked.interruptId, a), a);
    expect(own.types.at(-1)).toBe("RUN_FINISHED");
    expect(await executions("alice", threadId)).toBe(1);
  });

  test("POST replay: the owner's exact body and key from another identity replays nothing of it", async () => {
    const threadId = thread();
    const asked = await alice.askToDeploy(threadId, "deploy prod");
    const k = randomUUID();
    const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k, {
      approved: true,
      accepted: true,
      editedArgs: { target: "alice-secret" },
    });
    expect((await alice.run(body, k)).types.at(-1)).toBe("RUN_FINISHED");
    const replay = await bob.run(body, k);
    expect(replay.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
    expect(JSON.stringify(replay.events)).not.toContain("alice-secret");
    expect(JSON.stringify(replay.events)).not.toContain(MetadataKey.resume);
    expect(await executions("alice", threadId)).toBe(1);
  });

  test("one threadId used by two people is two threads upstream, each asked and answered apart", async () => {
    const threadId = thread();
    const forAlice = await alice.askToDeploy(threadId, "deploy prod");
    const forBob = await bob.askToDeploy(threadId, "deploy prod");
    for (const [client, asked, who] of [
      [alice, forAlice, "alice"],
      [bob, forBob, "bob"],
    ] as const) {
      const k = randomUUID();
      const reply = await client.run(resumeBody(threadId, `resume-${k}`, asked.interruptId, k), k);
      expect(reply.types.at(-1)).toBe("RUN_FINISHED");
      expect(await executions(who, threadId)).toBe(1);
    }
  });
});
