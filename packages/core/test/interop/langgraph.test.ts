import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  langGraphPeerUnavailableReason,
  startLangGraphPeer,
} from "../../../mock-server/test/interop/langgraph-peer";
import type { PythonPeer } from "../../../mock-server/test/interop/python-peer";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import type { OutboxEntry } from "../../src/outbox/entry";
import { createIsolatedClient } from "../../testing/isolated-client";
import { askForDeployment, settled } from "../integration/harness";

// Our SDK against the real LangGraph AG-UI adapter (e2e/peers/langgraph: ag-ui-langgraph
// 0.0.47 with emit_interrupt_outcome=True, langgraph 1.2.24, a graph that asks with
// interrupt(), LangGraph's ToolNode, the in-memory checkpointer). It has no recovery
// contract and no APPROVAL_* codes: it answers any resume on a thread without an open
// interrupt with a plain RUN_FINISHED. Every test asserts the ledger, that no verdict
// claims an execution the ledger does not show, and how many requests it took.

const unavailable = langGraphPeerUnavailableReason();
if (unavailable) console.warn(`skipped: ${unavailable}`);

/**
 * What a verdict claims about the tool: that it ran, that it did not, or neither
 * ("lost": it cannot tell). A rejection that took effect claims it did not run.
 */
function claim(entry: OutboxEntry): "ran" | "not run" | "unknown" {
  const detail = entry.verdictDetail ?? "";
  if (entry.state === "applied") return entry.decision.kind === "approve" ? "ran" : "not run";
  if (entry.state === "elsewhere") return /the action ran/.test(detail) ? "ran" : "not run";
  return /did not run/.test(detail) ? "not run" : "unknown";
}

describe.skipIf(unavailable !== undefined)("the real LangGraph AG-UI server (ag-ui-langgraph)", () => {
  let peer: PythonPeer;
  const clients: OutboxClient[] = [];
  let indexedDB = new IDBFactory();
  /** Every request the clients made, and the keys of those that carried an answer. */
  const requests: string[] = [];
  const answerKeys: string[] = [];

  beforeAll(async () => {
    peer = await startLangGraphPeer();
  }, 100_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.dispose();
    indexedDB = new IDBFactory();
    requests.length = 0;
    answerKeys.length = 0;
    await peer?.reset();
  });

  const counting = (input: string, init?: RequestInit) => {
    requests.push(String(input));
    const key = new Headers(init?.headers).get("idempotency-key");
    if (key) answerKeys.push(key);
    return fetch(input, init);
  };

  /** A page's client; a `device` of its own has its own IndexedDB (another browser). */
  function open(
    fetchImpl: (input: string, init?: RequestInit) => Promise<Response> = counting,
    device?: IDBFactory,
    stallTimeoutMs?: number,
  ): OutboxClient {
    const client = createIsolatedClient({
      ...(stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-lg",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      indexedDB: device ?? indexedDB,
      deps: { fetch: fetchImpl },
    });
    clients.push(client);
    return client;
  }

  async function started(): Promise<OutboxClient> {
    const client = open();
    await client.start();
    return client;
  }

  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  /** The truth rule: what the verdict claims about the tool agrees with the ledger. */
  async function expectTruthful(final: OutboxEntry, threadId: string) {
    const ran = (await executions(threadId)).length;
    const said = claim(final);
    if (said === "ran") expect(ran, `${final.state}: ${final.verdictDetail}`).toBeGreaterThan(0);
    if (said === "not run") expect(ran, `${final.state}: ${final.verdictDetail}`).toBe(0);
  }

  test("no capabilities route: the client detects a server without the contract", async () => {
    const client = await started();
    await expect.poll(() => client.connection.getState().serverKind).toBe("degraded");
    expect(client.connection.getState().link.name).toBe("connected");
  });

  test("its interrupt becomes a pending approval: LangGraph's own id, the tool call, the graph's schema", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-card");

    // The id is LangGraph's (a hash of the interrupted task), not the tool call's.
    expect(interrupt.id).toMatch(/^[0-9a-f]{32}$/);
    expect(interrupt.toolCallId).toBe("deploy-lg-card");
    expect(interrupt.message).toBe("Approve running deploy_change?");
    const declared = Object.keys((interrupt.responseSchema as { properties: object }).properties);
    expect(declared).toEqual(["approved", "editedArgs", "reason"]);
    const proposed = client
      .thread("lg-card")
      .store.getState()
      .messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []));
    expect(proposed.map((call) => call.function.name)).toEqual(["deploy_change"]);
  });

  test("approve → applied, the tool runs once with the proposed arguments, one request", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-approve");

    const entry = await client.answer({ threadId: "lg-approve", interruptId: interrupt.id, approved: true });
    const final = await settled(client, entry.key);

    expect(final).toMatchObject({ state: "applied", attempts: 1 });
    expect(answerKeys).toEqual([entry.key]);
    expect((await executions("lg-approve")).map((execution) => execution.args)).toEqual([{ target: "prod" }]);
    expect(client.thread("lg-approve").store.getState().pendingInterrupts).toEqual([]);
  });

  test("edited arguments are sent as editedArgs, as its schema declares, and run", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-edit");

    const entry = await client.answer({
      threadId: "lg-edit",
      interruptId: interrupt.id,
      approved: true,
      editedArgs: { target: "staging" },
    });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    expect(JSON.parse(entry.body).resume[0].payload).toMatchObject({
      approved: true,
      editedArgs: { target: "staging" },
    });
    expect((await executions("lg-edit")).map((execution) => execution.args)).toEqual([{ target: "staging" }]);
  });

  test("reject → applied, nothing runs; the thread holds LangChain's rejection message", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-reject");

    const entry = await client.answer({ threadId: "lg-reject", interruptId: interrupt.id, approved: false });
    const final = await settled(client, entry.key);

    expect(final).toMatchObject({ state: "applied", attempts: 1 });
    expect(await executions("lg-reject")).toHaveLength(0);
    const tool = client
      .thread("lg-reject")
      .store.getState()
      .messages.find((message) => message.role === "tool");
    expect(tool?.content).toMatch(/^User rejected the tool call for `deploy_change`/);
  });

  test("the model call after the tool fails: applied from the thread, one request, one execution", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-model-fail");
    await peer.chaos([{ point: "after-tool", action: "fail", threadId: "lg-model-fail" }]);

    const entry = await client.answer({
      threadId: "lg-model-fail",
      interruptId: interrupt.id,
      approved: true,
    });
    const final = await settled(client, entry.key);

    // RUN_STARTED, the tool's result, then RUN_ERROR: the hydration reads the result
    // from the checkpoint (and re-enters the graph, whose model now answers).
    expect(final).toMatchObject({ state: "applied", attempts: 1 });
    expect(final.verdictDetail).toMatch(/confirmed from the conversation/);
    expect(answerKeys).toEqual([entry.key]);
    expect(await executions("lg-model-fail")).toHaveLength(1);
    await expectTruthful(final, "lg-model-fail");
  });

  test("the stream drops right after RUN_STARTED: never resent, the thread decides; at most one execution", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-drop");
    await peer.chaos([{ point: "mid-stream", action: "drop", afterEvents: 1, threadId: "lg-drop" }]);

    const entry = await client.answer({ threadId: "lg-drop", interruptId: interrupt.id, approved: true });
    const final = await settled(client, entry.key);

    // The adapter keeps running the graph after the client is gone. Read after the run
    // moved on, the thread shows the result (applied); read before, the question still
    // open, and a resend then can run the tool twice (docs/interop.md): lost, the answer
    // kept. Either way one request and one execution.
    expect(final).toMatchObject({ attempts: 1, decision: { kind: "approve" } });
    expect(final.verdictDetail).toMatch(
      final.state === "applied" ? /confirmed from the conversation/ : /cannot tell whether the action ran/,
    );
    expect(["applied", "lost"]).toContain(final.state);
    expect(answerKeys).toEqual([entry.key]);
    expect(requests.length).toBeLessThanOrEqual(6);
    // The adapter may go on to run the tool, or stop with the cut stream: never twice,
    // and an "applied" needs the execution (expectTruthful reads the ledger).
    if (final.state === "applied")
      await expect.poll(async () => (await executions("lg-drop")).length).toBe(1);
    expect((await executions("lg-drop")).length).toBeLessThanOrEqual(1);
    await expectTruthful(final, "lg-drop");

    // A reload sends nothing again.
    client.dispose();
    const reloaded = open();
    await reloaded.start();
    // Settled verdicts are read once start() has resolved.
    await expect
      .poll(() => reloaded.entryFor("lg-drop", interrupt.id))
      .toMatchObject({ key: entry.key, state: final.state });
    expect(answerKeys).toEqual([entry.key]);
  });

  test("reject, the stream drops after RUN_STARTED: never applied, nothing runs", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-reject-drop");
    await peer.chaos([{ point: "mid-stream", action: "drop", afterEvents: 1, threadId: "lg-reject-drop" }]);

    const entry = await client.answer({
      threadId: "lg-reject-drop",
      interruptId: interrupt.id,
      approved: false,
    });
    const final = await settled(client, entry.key);

    // As above: the thread read after the run moved on records the rejection (applied),
    // read before it shows the question open (lost), never "the server did not take it".
    expect(final).toMatchObject({ attempts: 1 });
    expect(final.verdictDetail).toMatch(
      final.state === "applied" ? /records the rejection/ : /took the answer, but cannot tell yet/,
    );
    expect(["applied", "lost"]).toContain(final.state);
    expect(await executions("lg-reject-drop")).toHaveLength(0);
    await expectTruthful(final, "lg-reject-drop");
  });

  test("a duplicate after success (the page died with the answer in flight) → applied, once", async () => {
    let deliver!: () => void;
    const delivered = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    const page = open((input, init) => {
      const response = counting(input, init);
      if (!new Headers(init?.headers).has("idempotency-key")) return response;
      return response.then(async (answer) => {
        await answer.text();
        deliver();
        return new Promise<Response>(() => {});
      });
    });
    await page.start();
    const interrupt = await askForDeployment(page, "lg-duplicate");
    const entry = await page.answer({ threadId: "lg-duplicate", interruptId: interrupt.id, approved: true });
    await delivered;
    expect(await executions("lg-duplicate")).toHaveLength(1);
    page.dispose();

    const reloaded = open();
    await reloaded.start();
    const final = await settled(reloaded, entry.key);

    // The same bytes again: a plain RUN_FINISHED whose snapshot shows the tool's result.
    expect(final).toMatchObject({ state: "applied", attempts: 2 });
    expect(answerKeys).toEqual([entry.key, entry.key]);
    expect(await executions("lg-duplicate")).toHaveLength(1);
  });

  for (const [name, firstApproves, verdictDetail, ran] of [
    ["lg-stale-approve", false, /it was rejected, and the action did not run/, 0],
    ["lg-stale-reject", true, /it was approved, and the action ran/, 1],
  ] as const) {
    test(`one device ${firstApproves ? "approves" : "rejects"}, a stale second device answers the opposite → answered elsewhere`, async () => {
      const first = await started();
      const interrupt = await askForDeployment(first, name);
      const second = open(undefined, new IDBFactory());
      await second.start();
      await second.thread(name).hydrate();
      expect(
        second
          .thread(name)
          .store.getState()
          .pendingInterrupts.map((pending) => pending.id),
      ).toEqual([interrupt.id]);

      const answered = await first.answer({
        threadId: name,
        interruptId: interrupt.id,
        approved: firstApproves,
      });
      expect((await settled(first, answered.key)).state).toBe("applied");
      const stale = await second.answer({
        threadId: name,
        interruptId: interrupt.id,
        approved: !firstApproves,
      });
      const final = await settled(second, stale.key);

      // The adapter answers the stale resume with a plain RUN_FINISHED: the thread's
      // tool message decides (outcome/tool-evidence.ts, rule degraded-finished-*).
      expect(final).toMatchObject({ state: "elsewhere", attempts: 1 });
      expect(final.verdictDetail).toMatch(verdictDetail);
      expect(await executions(name)).toHaveLength(ran);
      await expectTruthful(final, name);
      expect(answerKeys).toEqual([answered.key, stale.key]);
    });
  }

  test("tool unavailable → needs you, it did not run: LangGraph's ToolNode answers with its own error", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "lg-unavailable");
    await peer.chaos([{ point: "before-claim", action: "fail", threadId: "lg-unavailable" }]);

    const entry = await client.answer({
      threadId: "lg-unavailable",
      interruptId: interrupt.id,
      approved: true,
    });
    const final = await settled(client, entry.key);

    // "Error: deploy_change is not a valid tool, try one of []." consumes the question;
    // a resend would be a no-op. The answer is kept for the person.
    expect(final).toMatchObject({ state: "needs_user", attempts: 1 });
    expect(final.verdictDetail).toMatch(/did not run/);
    expect(answerKeys).toEqual([entry.key]);
    expect(await executions("lg-unavailable")).toHaveLength(0);
    await expectTruthful(final, "lg-unavailable");
  });

  test("a tool slower than the stall watchdog: the stream is not cut, applied, one execution", async () => {
    // Asked with the default watchdog (the scripted model is not slow, but the machine
    // may be), answered after a reload with a 300 ms one.
    const asking = await started();
    const interrupt = await askForDeployment(asking, "lg-long-tool");
    asking.dispose();
    const client = open(undefined, undefined, 300);
    await client.start();
    await client.thread("lg-long-tool").hydrate();
    await peer.chaos([{ point: "mid-tool", action: "delay", delayMs: 1500, threadId: "lg-long-tool" }]);

    const entry = await client.answer({
      threadId: "lg-long-tool",
      interruptId: interrupt.id,
      approved: true,
    });
    const final = await settled(client, entry.key);

    expect(final).toMatchObject({ state: "applied", attempts: 1, lastError: null });
    expect(await executions("lg-long-tool")).toHaveLength(1);
  });
});
