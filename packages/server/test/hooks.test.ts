import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgUiEvent, OutcomeCode } from "@agui-outbox/core/protocol";
import { afterEach, expect, test, vi } from "vitest";
import { SseReader } from "../../mock-server/test/support/sse-reader";
import {
  type AfterClaim,
  type BeforeClaim,
  type ContractServer,
  createContractServer,
  type Hydrate,
  MemoryStore,
  OccurrenceState,
  type ServerClock,
  type ToolDefinition,
} from "../src/index";
import { ContractClient, resumeBody } from "./support/contract-client";
import { ManualClock } from "./support/manual-clock";
import { scriptedDeployAgent } from "./support/scripted-agent";

const LEASE_MS = 3_000;

/** One store shared by in-process instances, on a clock the test moves. */
function sharedStore() {
  const time = { now: 1_700_000_000_000 };
  return { time, store: new MemoryStore({ now: () => time.now }) };
}

/** A deploy tool whose every run is counted and which holds until released. */
function heldDeploy() {
  const runs: string[] = [];
  let release: () => void = () => {};
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool: ToolDefinition = {
    async execute(args, context) {
      runs.push(context.toolCallId);
      started();
      await held;
      return `deployed to ${String(args.target)}`;
    },
  };
  return { tool, runs, running, release: () => release() };
}

const instances: { contract: ContractServer; http: Server }[] = [];

async function instance(
  store: MemoryStore,
  tool: ToolDefinition,
  extra: {
    beforeClaim?: BeforeClaim;
    afterClaim?: AfterClaim;
    clock?: ServerClock;
    hydrate?: Hydrate;
    instanceId?: string;
  } = {},
): Promise<{ contract: ContractServer; client: ContractClient }> {
  const { agent } = scriptedDeployAgent({ record: async () => {}, entries: async () => [] });
  const contract = createContractServer({
    store,
    agent,
    tools: { deploy: tool },
    claimLeaseMs: LEASE_MS,
    sweepIntervalMs: 0,
    ...extra,
  });
  const http = createServer(contract.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  instances.push({ contract, http });
  return { contract, client: new ContractClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`) };
}

async function readAll(response: Response): Promise<SseReader> {
  const reader = new SseReader(response);
  await reader.done;
  return reader;
}

afterEach(async () => {
  for (const { contract, http } of instances.splice(0)) {
    if (!contract.engine.abandoned) await contract.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

test("beforeClaim refuses: RUN_ERROR with its code, nothing claimed, no tool run; the same key then claims and runs once", async () => {
  const { store } = sharedStore();
  const deploy = heldDeploy();
  deploy.release();
  let refuse = true;
  const asked: string[][] = [];
  const { client } = await instance(store, deploy.tool, {
    beforeClaim: ({ interruptIds }) => {
      asked.push([...interruptIds]);
      return refuse
        ? { refuse: { code: OutcomeCode.TOOL_UNAVAILABLE, message: "the deploy API is down" } }
        : undefined;
    },
  });
  const turn = await client.askToDeploy("t-gate", "deploy prod");
  const body = resumeBody("t-gate", "run-gate", turn.interruptId, "key-gate");

  const refused = await client.run(body, "key-gate");
  expect(refused.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect((refused.events[0]?.metadata as Record<string, unknown> | undefined)?.["x-resume"]).toBeUndefined();
  expect(refused.events[1]).toMatchObject({
    code: OutcomeCode.TOOL_UNAVAILABLE,
    message: "the deploy API is down",
  });
  expect(asked).toEqual([[turn.interruptId]]);
  const [open] = await store.threadOccurrences("t-gate");
  expect(open).toMatchObject({ state: OccurrenceState.pending, claim: null, decision: null });
  expect(deploy.runs).toEqual([]);

  refuse = false;
  const retried = await client.run(body, "key-gate");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  expect(deploy.runs).toHaveLength(1);

  // A replay of the committed outcome claims nothing: the gate is not asked again.
  const replayed = await client.run(body, "key-gate");
  expect(replayed.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
  expect(asked).toHaveLength(2);
  expect(deploy.runs).toHaveLength(1);
});

test("a beforeClaim that throws, or refuses with a code no client knows, refuses with a retryable UNAVAILABLE", async () => {
  const { store } = sharedStore();
  const deploy = heldDeploy();
  let calls = 0;
  const { client } = await instance(store, deploy.tool, {
    beforeClaim: () => {
      calls += 1;
      if (calls === 1) throw new Error("quota service unreachable");
      return { refuse: { code: "NOT_A_CONTRACT_CODE", message: "over quota" } };
    },
  });
  const turn = await client.askToDeploy("t-gate-bad", "deploy prod");
  const body = resumeBody("t-gate-bad", "run-gate-bad", turn.interruptId, "key-gate-bad");
  const thrown = await client.run(body, "key-gate-bad");
  expect(thrown.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });
  const unknown = await client.run(body, "key-gate-bad");
  expect(unknown.events.at(-1)).toMatchObject({
    type: "RUN_ERROR",
    code: OutcomeCode.UNAVAILABLE,
    message: "over quota",
  });
  expect(deploy.runs).toEqual([]);
});

test("afterClaim runs after the ack and before any tool: a throw rolls the claim back with its contract code, nothing ran; the retry runs once", async () => {
  const { store } = sharedStore();
  const deploy = heldDeploy();
  deploy.release();
  let fail = true;
  const seen: string[] = [];
  const { client } = await instance(store, deploy.tool, {
    afterClaim: ({ runId, signal }) => {
      seen.push(`${runId}:${signal.aborted}`);
      if (fail) {
        fail = false;
        throw Object.assign(new Error("the model is down; retry with the same key"), {
          code: OutcomeCode.MODEL_CALL_FAILED,
        });
      }
    },
  });
  const turn = await client.askToDeploy("t-after-claim", "deploy prod");
  const body = resumeBody("t-after-claim", "run-ac", turn.interruptId, "key-ac");
  const failed = await client.run(body, "key-ac");
  expect((failed.events[0]?.metadata as Record<string, unknown>)?.["x-resume"]).toMatchObject({
    ack: "claimed",
  });
  expect(failed.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.MODEL_CALL_FAILED });
  expect(failed.types).not.toContain("TOOL_CALL_RESULT");
  const [open] = await store.threadOccurrences("t-after-claim");
  expect(open).toMatchObject({ state: OccurrenceState.pending, claim: null, decision: null });
  expect(deploy.runs).toEqual([]);

  const retried = await client.run(body, "key-ac");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
  expect(deploy.runs).toHaveLength(1);
  expect(seen).toEqual(["run-ac:false", "run-ac:false"]);
});

test("abandon inside afterClaim (a crash after the claim): the claim stays leased, then lapses, and the retry elsewhere runs the tool once", async () => {
  const { store, time } = sharedStore();
  const deploy = heldDeploy();
  deploy.release();
  let crash = true;
  const first = await instance(store, deploy.tool, {
    afterClaim: () => {
      if (crash) {
        crash = false;
        first.contract.abandon();
      }
    },
  });
  const second = await instance(store, deploy.tool);
  const turn = await first.client.askToDeploy("t-crash-claim", "deploy prod");
  const body = resumeBody("t-crash-claim", "run-cc", turn.interruptId, "key-cc");
  const crashed = await first.client.open(body, "key-cc");
  expect(await crashed.done).toBe("error");
  expect(crashed.types).toEqual(["RUN_STARTED"]);
  expect((crashed.events[0]?.metadata as Record<string, unknown>)?.["x-resume"]).toMatchObject({
    ack: "claimed",
  });
  const [held] = await store.threadOccurrences("t-crash-claim");
  expect(held).toMatchObject({ state: OccurrenceState.claimed, claim: { runId: "run-cc" } });

  time.now += LEASE_MS + 1;
  await second.contract.sweep();
  const retried = await second.client.run(body, "key-cc");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED", runId: "run-cc" });
  expect(deploy.runs).toHaveLength(1);
});

test("abandon mid-tool leaves the claim as a dead instance would; once the lease lapses another instance's sweep makes it INDETERMINATE, never a second run", async () => {
  const { store, time } = sharedStore();
  const deploy = heldDeploy();
  const first = await instance(store, deploy.tool);
  const second = await instance(store, deploy.tool);
  const turn = await first.client.askToDeploy("t-abandon", "deploy prod");
  const body = resumeBody("t-abandon", "run-abandon", turn.interruptId, "key-abandon");

  const stream = await first.client.open(body, "key-abandon");
  await deploy.running;
  first.contract.abandon();
  expect(await stream.done).toBe("error");
  expect(stream.types).toEqual(["RUN_STARTED"]);
  deploy.release();

  // No rollback and no RUN_ERROR were written: the claim is held mid-tool, the run has no terminal event.
  const [held] = await store.threadOccurrences("t-abandon");
  expect(held).toMatchObject({ state: OccurrenceState.executing, claim: { runId: "run-abandon" } });
  expect((await store.run("run-abandon"))?.terminal).toBeNull();
  // A dead instance answers nothing.
  await expect(first.client.status("run-abandon")).rejects.toThrow();

  // Within the lease the claim is still the dead instance's: another submission is told so.
  await second.contract.sweep();
  const other = resumeBody("t-abandon", "run-other", turn.interruptId, "key-other");
  const during = await second.client.run(other, "key-other");
  expect(during.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.IN_PROGRESS });

  time.now += LEASE_MS + 1;
  await second.contract.sweep();
  const [swept] = await store.threadOccurrences("t-abandon");
  expect(swept?.state).toBe(OccurrenceState.indeterminate);
  const after = await second.client.run(body, "key-abandon");
  expect(after.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
  expect(deploy.runs).toHaveLength(1);
});

test("the injected clock schedules lease renewals: ticking keeps a held claim, no tick lets it lapse to another instance's sweep", async () => {
  for (const ticking of [true, false]) {
    const { store, time } = sharedStore();
    const deploy = heldDeploy();
    const clock = new ManualClock();
    const holder = await instance(store, deploy.tool, { clock });
    const sweeper = await instance(store, deploy.tool);
    const threadId = `t-clock-${ticking}`;
    const turn = await holder.client.askToDeploy(threadId, "deploy prod");
    const stream = await holder.client.open(
      resumeBody(threadId, "run-clock", turn.interruptId, "key"),
      "key",
    );
    await deploy.running;

    for (let step = 0; step < 4; step += 1) {
      time.now += LEASE_MS / 2;
      if (ticking) {
        clock.advance(LEASE_MS / 2);
        // The renewal's store write lands before the other instance looks.
        await vi.waitFor(async () => {
          const [renewed] = await store.threadOccurrences(threadId);
          expect(renewed?.claim?.leaseUntil).toBe(time.now + LEASE_MS);
        });
      }
      await sweeper.contract.sweep();
    }
    const [occurrence] = await store.threadOccurrences(threadId);
    expect(occurrence?.state).toBe(ticking ? OccurrenceState.executing : OccurrenceState.indeterminate);
    deploy.release();
    await stream.done;
    const [settled] = await store.threadOccurrences(threadId);
    expect(settled?.state).toBe(ticking ? OccurrenceState.resolved : OccurrenceState.indeterminate);
    expect(deploy.runs).toHaveLength(1);
    // The ended run's renewal is off the clock.
    await vi.waitFor(() => expect(clock.scheduled).toBe(0));
  }
});

test("hydrate adds the team's events to a hydration before the RUN_FINISHED with the open interrupts; a throw is a retryable RUN_ERROR", async () => {
  const { store } = sharedStore();
  const deploy = heldDeploy();
  let fail = false;
  const given: string[][] = [];
  const { client } = await instance(store, deploy.tool, {
    hydrate: ({ input, interrupts }) => {
      given.push(interrupts.map((interrupt) => interrupt.id));
      if (fail) throw new Error("the history database is down");
      return [
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [{ id: "m-1", role: "user", content: `history of ${input.threadId}` }],
        },
        // The library writes the run's own terminal event: this one is dropped.
        { type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId },
      ] as AgUiEvent[];
    },
  });
  const turn = await client.askToDeploy("t-hydrate", "deploy prod");
  const hydration = { threadId: "t-hydrate", runId: "h-1", messages: [], tools: [], context: [] };
  const hydrated = await client.run(hydration);
  expect(hydrated.types).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
  expect(hydrated.events[1]).toMatchObject({ messages: [{ content: "history of t-hydrate" }] });
  expect(hydrated.events[2]).toMatchObject({
    outcome: { type: "interrupt", interrupts: [{ id: turn.interruptId }] },
  });
  expect(given).toEqual([[turn.interruptId]]);

  fail = true;
  const failed = await client.run({ ...hydration, runId: "h-2" });
  expect(failed.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(failed.events[1]).toMatchObject({ code: OutcomeCode.UNAVAILABLE });
  const [open] = await store.threadOccurrences("t-hydrate");
  expect(open?.state).toBe(OccurrenceState.pending);
});

test("a restart under the same instanceId ends its earlier life's run at once; the claim stays leased until it lapses, then the retry runs once", async () => {
  const { store, time } = sharedStore();
  const deploy = heldDeploy();
  deploy.release();
  let crash = true;
  const first = await instance(store, deploy.tool, {
    instanceId: "replica-a",
    afterClaim: () => {
      if (crash) {
        crash = false;
        first.contract.abandon();
      }
    },
  });
  const turn = await first.client.askToDeploy("t-restart", "deploy prod");
  const body = resumeBody("t-restart", "run-rs", turn.interruptId, "key-rs");
  await (await first.client.open(body, "key-rs")).done;
  expect((await store.run("run-rs"))?.terminal).toBeNull();

  const restarted = await instance(store, deploy.tool, { instanceId: "replica-a" });
  await restarted.contract.sweep();
  const attached = await restarted.client.attach("run-rs", "run-rs:1");
  const orphan = await readAll(attached);
  expect(orphan.types).toEqual(["RUN_ERROR"]);
  expect(orphan.frames[0]?.id).toBe("run-rs:2");
  expect(await (await restarted.client.status("run-rs")).json()).toMatchObject({
    status: "error",
    lastSeq: 2,
  });
  // Its claim is still leased, as a dead instance's is: another submission is told so.
  const other = await restarted.client.run(
    resumeBody("t-restart", "run-other", turn.interruptId, "key-other"),
    "key-other",
  );
  expect(other.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.IN_PROGRESS });
  expect(deploy.runs).toEqual([]);

  time.now += LEASE_MS + 1;
  const retried = await restarted.client.run(body, "key-rs");
  expect(retried.events.at(-1)).toMatchObject({ type: "RUN_FINISHED", runId: "run-rs" });
  expect(deploy.runs).toHaveLength(1);
});

test("an instance under another id never closes a run it did not begin before its lease lapses", async () => {
  const { store } = sharedStore();
  const deploy = heldDeploy();
  const holder = await instance(store, deploy.tool, { instanceId: "replica-a" });
  const other = await instance(store, deploy.tool, { instanceId: "replica-b" });
  const turn = await holder.client.askToDeploy("t-live", "deploy prod");
  const stream = await holder.client.open(
    resumeBody("t-live", "run-live", turn.interruptId, "key-live"),
    "key-live",
  );
  await deploy.running;
  await other.contract.sweep();
  // The holder's own sweep sees its live run and leaves it alone.
  await holder.contract.sweep();
  expect((await store.run("run-live"))?.terminal).toBeNull();
  deploy.release();
  await stream.done;
  expect(stream.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
});
