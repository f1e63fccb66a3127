import type { BaseEvent } from "@ag-ui/client";
import { manualSignal } from "@agui-outbox/core/testing";
import { IDBFactory } from "fake-indexeddb";
import { describe, expect, test } from "vitest";
import {
  type DeliveryProgress,
  DurableEventName,
  DurableRunErrorCode,
  type VerdictDetail,
} from "../src/index";
import { customEvents, lastEvent, resumeWith, say, startAgentHarness, verifySequence } from "./agent-harness";

const THREAD = "thread-1";

function verdicts(run: readonly BaseEvent[] | undefined): VerdictDetail[] {
  return customEvents(run ?? [], DurableEventName.verdict) as VerdictDetail[];
}

function texts(messages: readonly { content?: unknown }[]): string[] {
  return messages.map((message) => (typeof message.content === "string" ? message.content : ""));
}

/** A fetch whose resumes reach the server and run there, but whose answers never reach the page. */
function answersNeverArrive() {
  let markReached = () => {};
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const fetchLike = (input: string, init?: RequestInit): Promise<Response> => {
    if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
    return fetch(input, init).then(async (response) => {
      await response.text();
      markReached();
      return new Promise<Response>(() => {});
    });
  };
  return { reached, fetch: fetchLike };
}

describe("DurableHttpAgent against the mock server", () => {
  test("a user turn ends with the interrupt open; the answer is applied once, with a fresh runId", async () => {
    const harness = await startAgentHarness();
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    const [asked] = harness.runsOf(agent);
    expect(lastEvent(asked)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
    expect(agent.pendingInterrupts).toHaveLength(1);
    const askedRunId = (asked?.[0] as { runId?: string } | undefined)?.runId;
    if (!askedRunId) throw new Error("the run that asked has no runId");

    // CopilotKit resumes with the runId of the run that asked (CopilotKit#6999).
    await agent.runAgent({ ...resumeWith(agent, { approved: true }), runId: askedRunId });

    const answered = harness.runsOf(agent)[1];
    expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "applied", replayed: false })]);
    expect(verdicts(answered)[0]?.wireRunId).not.toBe(askedRunId);
    expect(lastEvent(answered)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(texts(agent.messages)).toContain("Deployed to prod.");
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("two questions in one run: both answers go in one resume, each gets its verdict", async () => {
    const harness = await startAgentHarness();
    // What the server received, per idempotency key: the interrupts each resume answered.
    const resumes: Array<{ key: string; interruptIds: string[] }> = [];
    const recording = (input: string, init?: RequestInit) => {
      const key = new Headers(init?.headers).get("idempotency-key");
      if (key) {
        const body = JSON.parse(String(init?.body)) as { resume?: Array<{ interruptId: string }> };
        resumes.push({ key, interruptIds: (body.resume ?? []).map((entry) => entry.interruptId) });
      }
      return fetch(input, init);
    };
    const agent = harness.page({ client: { deps: { fetch: recording } } });
    await say(agent, "please deploy to prod and staging");
    const asked = agent.pendingInterrupts.map((interrupt) => interrupt.id);
    expect(asked).toHaveLength(2);

    await agent.runAgent({
      resume: asked.map((interruptId) => ({
        interruptId,
        status: "resolved" as const,
        payload: { approved: true },
      })),
    });

    expect(resumes).toHaveLength(1);
    expect([...(resumes[0]?.interruptIds ?? [])].sort()).toEqual([...asked].sort());
    const answered = harness.runsOf(agent)[1];
    const decided = verdicts(answered);
    expect(decided.map((verdict) => verdict.verdict)).toEqual(["applied", "applied"]);
    expect(decided.map((verdict) => verdict.interruptId).sort()).toEqual([...asked].sort());
    // Each verdict names the key its answer travelled under: the one the server received.
    expect(decided.map((verdict) => verdict.idempotencyKey)).toEqual([resumes[0]?.key, resumes[0]?.key]);
    const progress = customEvents(answered ?? [], DurableEventName.delivery) as DeliveryProgress[];
    expect(progress.length).toBeGreaterThan(0);
    for (const step of progress) {
      expect(step.idempotencyKey).toBe(step.state === "held" ? null : resumes[0]?.key);
    }
    expect(lastEvent(answered)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(await harness.ledger(THREAD)).toHaveLength(2);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("reload during delivery: the new page follows the answer to applied, ledger 1, card not shown again", async () => {
    const harness = await startAgentHarness();
    const never = answersNeverArrive();
    const before = harness.page({ client: { deps: { fetch: never.fetch } } });
    await say(before, "please deploy to prod");
    void before.runAgent(resumeWith(before, { approved: true }));
    await never.reached;
    before.client.dispose();

    const after = harness.page();
    await after.connectAgent();

    const [connected] = harness.runsOf(after);
    expect(verdicts(connected)).toEqual([expect.objectContaining({ verdict: "applied" })]);
    expect(lastEvent(connected)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(after.pendingInterrupts).toEqual([]);
    expect(texts(after.messages)).toContain("Deployed to prod.");
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(after).flat());
  });

  test("reload during delivery and the first hydration fails: the answer is still followed to applied", async () => {
    const harness = await startAgentHarness();
    const never = answersNeverArrive();
    const before = harness.page({ client: { deps: { fetch: never.fetch } } });
    await say(before, "please deploy to prod");
    void before.runAgent(resumeWith(before, { approved: true }));
    await never.reached;
    before.client.dispose();

    let hydrations = 0;
    const firstHydrationFails = (input: string, init?: RequestInit) => {
      const isHydration = init?.method === "POST" && !new Headers(init.headers).has("idempotency-key");
      if (isHydration) hydrations += 1;
      if (isHydration && hydrations === 1) return Promise.reject(new TypeError("Failed to fetch"));
      return fetch(input, init);
    };
    const after = harness.page({ client: { deps: { fetch: firstHydrationFails } } });
    await after.connectAgent();

    const [connected] = harness.runsOf(after);
    expect(hydrations).toBeGreaterThanOrEqual(2);
    expect(verdicts(connected)).toEqual([expect.objectContaining({ verdict: "applied" })]);
    expect(lastEvent(connected)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(texts(after.messages)).toContain("Deployed to prod.");
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(after).flat());
  });

  test("reload mid-delivery with the hydration answered late: the conversation ends with the result", async () => {
    const harness = await startAgentHarness();
    // The server holds the resume before claiming it, so the new page's hydration sees
    // the question still open; that snapshot is handed over only once the answer applied.
    await harness.chaos({ point: "before-claim", action: "delay", delayMs: 400, threadId: THREAD });
    let sent = () => {};
    const requestSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const pageDies = (input: string, init?: RequestInit): Promise<Response> => {
      if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
      void fetch(input, init).catch(() => {});
      sent();
      return new Promise<Response>(() => {});
    };
    const before = harness.page({ client: { deps: { fetch: pageDies } } });
    await say(before, "please deploy to prod");
    void before.runAgent(resumeWith(before, { approved: true }));
    await requestSent;
    before.client.dispose();

    let applied = () => {};
    const appliedSeen = new Promise<void>((resolve) => {
      applied = resolve;
    });
    const lateHydration = async (input: string, init?: RequestInit): Promise<Response> => {
      const isHydration = init?.method === "POST" && !new Headers(init.headers).has("idempotency-key");
      const response = await fetch(input, init);
      if (isHydration) await appliedSeen;
      return response;
    };
    const after = harness.page({ client: { deps: { fetch: lateHydration } } });
    after.client.outbox.subscribe((state) => {
      if (state.entries.some((entry) => entry.state === "applied")) applied();
    });
    await after.connectAgent();

    const [connected] = harness.runsOf(after);
    expect(verdicts(connected)).toEqual([expect.objectContaining({ verdict: "applied" })]);
    expect(texts(after.messages)).toContain("Deployed to prod.");
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(after).flat());
  });

  test("offline, then online: delivery progress is reported and the answer is applied once", async () => {
    const harness = await startAgentHarness();
    const online = manualSignal(true);
    let offline = false;
    const fetchLike = (input: string, init?: RequestInit) =>
      offline ? Promise.reject(new TypeError("Failed to fetch")) : fetch(input, init);
    const agent = harness.page({ client: { deps: { fetch: fetchLike, online } } });
    await say(agent, "please deploy to prod");

    offline = true;
    online.set(false);
    const answering = agent.runAgent(resumeWith(agent, { approved: true }));
    await expect.poll(() => agent.client.outbox.getState().entries[0]?.state).toBe("retry_wait");
    expect(await harness.ledger(THREAD)).toHaveLength(0);
    offline = false;
    online.set(true);
    await answering;

    const answered = harness.runsOf(agent)[1];
    const progress = customEvents(answered ?? [], DurableEventName.delivery) as Array<{ state: string }>;
    expect(progress.map((step) => step.state)).toContain("retry_wait");
    expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "applied" })]);
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("a dropped stream is re-attached: the conversation matches the hydrated thread, nothing twice", async () => {
    const harness = await startAgentHarness();
    await harness.chaos({ point: "mid-stream", action: "drop", afterEvents: 3, threadId: THREAD });
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    expect(agent.pendingInterrupts).toHaveLength(1);
    const pending = await fetch(`${harness.server.url}/__chaos`).then((response) => response.json());
    expect(pending).toEqual({ faults: [] });

    const elsewhere = harness.page({ browser: new IDBFactory() });
    await elsewhere.connectAgent();
    const ids = agent.messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(agent.messages).toEqual(elsewhere.messages);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("another device answered differently: answered elsewhere, as a typed RUN_ERROR", async () => {
    const harness = await startAgentHarness();
    const first = harness.page();
    await say(first, "please deploy to prod");
    const second = harness.page({ browser: new IDBFactory() });
    await second.connectAgent();
    expect(second.pendingInterrupts).toHaveLength(1);

    await first.runAgent(resumeWith(first, { approved: true }));
    await second.runAgent(resumeWith(second, { approved: false }));

    const answered = harness.runsOf(second)[1];
    expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "answered_elsewhere" })]);
    expect(verdicts(answered)[0]?.recordedDecisions).not.toBeNull();
    expect(lastEvent(answered)).toMatchObject({
      type: "RUN_ERROR",
      code: DurableRunErrorCode.answeredElsewhere,
    });
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(second).flat());
  });

  test("a card answered already in this browser (another tab) with another decision: answered elsewhere", async () => {
    const harness = await startAgentHarness();
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    const approve = resumeWith(agent, { approved: true });
    const reject = resumeWith(agent, { approved: false });
    await agent.runAgent(approve);
    // The card of another tab, still on screen: the same interrupt, the other decision.
    await agent.runAgent(reject);

    const answered = harness.runsOf(agent)[2];
    expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "answered_elsewhere" })]);
    expect(lastEvent(answered)).toMatchObject({
      type: "RUN_ERROR",
      code: DurableRunErrorCode.answeredElsewhere,
    });
    expect(agent.client.outbox.getState().entries.map((entry) => entry.state)).toEqual(["applied"]);
    expect(await harness.ledger(THREAD)).toHaveLength(1);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("edited arguments the schema refuses: nothing is sent, the interrupt is open again", async () => {
    const harness = await startAgentHarness();
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    await agent.runAgent(resumeWith(agent, { approved: true, editedArgs: { target: "" } }));

    const answered = harness.runsOf(agent)[1];
    expect(verdicts(answered)).toEqual([expect.objectContaining({ verdict: "invalid", key: null })]);
    expect(lastEvent(answered)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
    expect(agent.pendingInterrupts).toHaveLength(1);
    expect(agent.client.outbox.getState().entries).toEqual([]);
    expect(await harness.ledger(THREAD)).toHaveLength(0);
    await verifySequence(harness.runsOf(agent).flat());
  });

  test("a payload that is no decision at all ends in a typed RUN_ERROR, and nothing of the resume is stored", async () => {
    const harness = await startAgentHarness();
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    const [valid] = resumeWith(agent, { approved: true }).resume ?? [];
    if (!valid) throw new Error("no resume entry");
    // One readable entry and one that is not: neither is stored.
    await agent.runAgent({
      resume: [valid, { interruptId: "another-question", status: "resolved", payload: "yes please" }],
    });
    expect(lastEvent(harness.runsOf(agent)[1])).toMatchObject({
      type: "RUN_ERROR",
      code: DurableRunErrorCode.unreadableAnswer,
    });
    expect(agent.client.outbox.getState().entries).toEqual([]);
  });

  test.each(["af-lifecycle", "af-legacy"] as const)(
    "a server without the recovery contract (%s): applied once",
    async (mode) => {
      const harness = await startAgentHarness({ mode });
      const agent = harness.page();
      await say(agent, "please deploy to prod");
      await agent.runAgent(resumeWith(agent, { approved: true }));
      expect(verdicts(harness.runsOf(agent)[1])).toEqual([expect.objectContaining({ verdict: "applied" })]);
      expect(await harness.ledger(THREAD)).toHaveLength(1);
      await verifySequence(harness.runsOf(agent).flat());
    },
  );

  test("the event check has teeth: a duplicated RUN_STARTED is refused", async () => {
    const harness = await startAgentHarness();
    const agent = harness.page();
    await say(agent, "please deploy to prod");
    const [run] = harness.runsOf(agent);
    if (!run?.[0]) throw new Error("no run recorded");
    await verifySequence(run);
    await expect(verifySequence([run[0], ...run])).rejects.toThrow(/RUN_STARTED/);
  });
});
