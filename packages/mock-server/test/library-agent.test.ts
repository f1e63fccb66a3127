import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { type ContractServer, createContractServer, MemoryStore, OccurrenceState } from "@agui-outbox/server";
import { afterEach, expect, test } from "vitest";
import { ContractClient, resumeBody } from "../../server/test/support/contract-client";
import type { Fault } from "../src/chaos/fault";
import { FaultQueue } from "../src/chaos/fault-queue";
import { libraryDeployAgent, memoryHistory } from "../src/library/deploy-agent";
import type { LedgerEntry } from "../src/state/mock-state";

const LEASE_MS = 1_000;
const APPROVE = { approved: true };

/**
 * The mock's deploy agent and fault points on `@agui-outbox/server`: two
 * instances on one store (the second takes over once the first crashed), one
 * fault queue and one ledger, on a clock the test moves.
 */
async function setup() {
  const time = { now: Date.parse("2026-03-01T09:00:00.000Z") };
  const store = new MemoryStore({ now: () => time.now });
  const faults = new FaultQueue();
  const ledger: LedgerEntry[] = [];
  const history = memoryHistory();
  const crashes: string[] = [];
  const instances: { contract: ContractServer; client: ContractClient }[] = [];
  for (let index = 0; index < 2; index += 1) {
    const deploy = libraryDeployAgent({
      faults,
      record: async (entry) => {
        ledger.push(entry);
      },
      history,
      now: () => time.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))),
      randomUUID: () => crypto.randomUUID(),
      toolDurationMs: 5,
      crash: (point) => {
        crashes.push(point);
        instances[index]?.contract.abandon();
      },
    });
    const contract = createContractServer({ store, ...deploy, claimLeaseMs: LEASE_MS, sweepIntervalMs: 0 });
    const http = createServer(contract.handler());
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    servers.push({ contract, http });
    instances.push({
      contract,
      client: new ContractClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`),
    });
  }
  const [first, second] = instances as [(typeof instances)[0], (typeof instances)[0]];
  const ask = async (threadId: string) => {
    const turn = await first.client.askToDeploy(threadId, "please deploy to prod");
    return {
      turn,
      body: resumeBody(threadId, `run-${threadId}`, turn.interruptId, `key-${threadId}`, APPROVE),
    };
  };
  const arm = (fault: Omit<Fault, "times">) => faults.add([{ times: 1, ...fault }]);
  return { time, store, ledger, crashes, first, second, ask, arm };
}

const servers: { contract: ContractServer; http: Server }[] = [];
afterEach(async () => {
  for (const { contract, http } of servers.splice(0)) {
    if (!contract.engine.abandoned) await contract.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

test("the scripted deploy on the library: asked, approved, run once with the mock's receipt; hydration sends the thread back", async () => {
  const { first, ask, ledger } = await setup();
  const { turn, body } = await ask("t-happy");
  expect(turn.reader.events.at(-1)).toMatchObject({
    outcome: { type: "interrupt", interrupts: [{ message: "Deploy to prod?", reason: "tool_call" }] },
  });
  const applied = await first.client.run(body, "key-t-happy");
  expect(applied.events.find((event) => event.type === "TOOL_CALL_RESULT")).toMatchObject({
    content: JSON.stringify({ deployed: true, target: "prod" }),
  });
  expect(applied.events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(ledger).toMatchObject([{ threadId: "t-happy", name: "deploy_change", args: { target: "prod" } }]);
  const hydrated = await first.client.run({
    threadId: "t-happy",
    runId: "h",
    messages: [],
    tools: [],
    context: [],
  });
  expect(hydrated.types).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
  const snapshot = (hydrated.events[1]?.messages ?? []) as { role: string }[];
  const roles = snapshot.map((message) => message.role);
  expect(roles).toEqual(["user", "assistant", "tool", "assistant"]);
});

test("before-claim fail: TOOL_UNAVAILABLE with nothing claimed; the retry runs once", async () => {
  const { first, ask, arm, ledger, store } = await setup();
  const { body } = await ask("t-before");
  arm({ point: "before-claim", action: "fail" });
  const refused = await first.client.run(body, "key-t-before");
  expect(refused.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.TOOL_UNAVAILABLE });
  expect((await store.threadOccurrences("t-before"))[0]?.state).toBe(OccurrenceState.pending);
  expect((await first.client.run(body, "key-t-before")).events.at(-1)).toMatchObject({
    type: "RUN_FINISHED",
  });
  expect(ledger).toHaveLength(1);
});

test("after-tool fail: MODEL_CALL_FAILED keeping the result; the retry finishes on it, one execution", async () => {
  const { first, ask, arm, ledger } = await setup();
  const { body } = await ask("t-after-tool");
  arm({ point: "after-tool", action: "fail" });
  const failed = await first.client.run(body, "key-t-after-tool");
  expect(failed.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.MODEL_CALL_FAILED });
  const retried = await first.client.run(body, "key-t-after-tool");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
  const resultOf = (events: typeof failed.events) =>
    events.find((event) => event.type === "TOOL_CALL_RESULT");
  expect(resultOf(retried.events)?.messageId).toBe(resultOf(failed.events)?.messageId);
  expect(ledger).toHaveLength(1);
});

test("after-claim crash: the ack was seen, the claim stays leased, then lapses, and the other instance runs the tool once", async () => {
  const { first, second, ask, arm, ledger, crashes, time } = await setup();
  const { body } = await ask("t-crash-claim");
  arm({ point: "after-claim", action: "crash" });
  const crashed = await first.client.open(body, "key-t-crash-claim");
  expect(await crashed.done).toBe("error");
  expect(crashes).toEqual(["after-claim"]);
  expect(crashed.types).toEqual(["RUN_STARTED"]);
  time.now += LEASE_MS + 1;
  await second.contract.sweep();
  const retried = await second.client.run(body, "key-t-crash-claim");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
  expect(ledger).toHaveLength(1);
});

test("mid-tool crash: the effect happened, the instance died; after the lease the retry is INDETERMINATE and nothing runs again", async () => {
  const { first, second, ask, arm, ledger, time } = await setup();
  const { body } = await ask("t-crash-tool");
  arm({ point: "mid-tool", action: "crash" });
  expect(await (await first.client.open(body, "key-t-crash-tool")).done).toBe("error");
  expect(ledger).toHaveLength(1);
  time.now += LEASE_MS + 1;
  await second.contract.sweep();
  const retried = await second.client.run(body, "key-t-crash-tool");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  expect(ledger).toHaveLength(1);
});
