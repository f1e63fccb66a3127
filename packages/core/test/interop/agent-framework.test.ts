import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createOutboxClient, type OutboxClient } from "../../src/client/create-outbox-client";
import type { OutboxEntry } from "../../src/outbox/entry";
import { askForDeployment, settled } from "../integration/harness";
import {
  type AgentFrameworkPeer,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../../mock-server/test/interop/agent-framework-peer";

// Our SDK against the real Agent Framework AG-UI server (agent-framework-ag-ui, pinned in
// e2e/peers/agent-framework/requirements.txt) with a scripted model. It has no recovery
// contract: DESIGN.md's rules for servers without it must hold against the real thing,
// not only against the mock's emulation of it.

const unavailable = peerUnavailableReason();
if (unavailable) console.warn(`skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)("the real Agent Framework server", () => {
  let peer: AgentFrameworkPeer;
  const clients: OutboxClient[] = [];
  let indexedDB = new IDBFactory();

  beforeAll(async () => {
    peer = await startAgentFrameworkPeer();
  }, 40_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.dispose();
    indexedDB = new IDBFactory();
    await peer.reset();
  });

  /** A page's client; a second call in one test is a reload (same IndexedDB). */
  function open(fetchImpl?: (input: string, init?: RequestInit) => Promise<Response>): OutboxClient {
    const db = indexedDB;
    const client = createOutboxClient({
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-af",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      deps: {
        indexedDB: () => db,
        locks: () => undefined,
        openChannel: () => undefined,
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
      },
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

  test("no capabilities route: the client detects a server without the contract", async () => {
    const client = await started();
    await expect.poll(() => client.connection.getState().serverKind).toBe("degraded");
    expect(client.connection.getState().link.name).toBe("connected");
  });

  test("its interrupt becomes a pending approval the card can render: tool call, question, schema", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-card");

    expect(interrupt.toolCallId).toBe("deploy-af-card");
    expect(interrupt.message).toMatch(/deploy_change/);
    const schema = interrupt.responseSchema as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["approved", "editedArgs"]));
    const thread = client.thread("af-card").store.getState();
    const proposed = thread.messages.flatMap((message) =>
      "toolCalls" in message ? (message.toolCalls ?? []) : [],
    );
    expect(proposed.map((call) => call.function.name)).toContain("deploy_change");
  });

  test("approve → applied, the tool runs once with the proposed arguments", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-approve");

    const entry = await client.answer({ threadId: "af-approve", interruptId: interrupt.id, approved: true });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    expect(client.thread("af-approve").store.getState().pendingInterrupts).toEqual([]);
    const ran = await executions("af-approve");
    expect(ran).toHaveLength(1);
    expect(ran[0]?.args).toEqual({ target: "prod" });
  });

  test("edited arguments arrive as editedArgs, the only form its schema accepts with them, and run", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-edit");

    const entry = await client.answer({
      threadId: "af-edit",
      interruptId: interrupt.id,
      approved: true,
      editedArgs: { target: "staging" },
    });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    expect(JSON.parse(entry.body).resume[0].payload).toEqual({
      approved: true,
      accepted: true,
      editedArgs: { target: "staging" },
    });
    const ran = await executions("af-edit");
    expect(ran.map((execution) => execution.args)).toEqual([{ target: "staging" }]);
  });

  test("edited arguments its schema refuses never leave the page", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-edit-bad");

    await expect(
      client.answer({
        threadId: "af-edit-bad",
        interruptId: interrupt.id,
        approved: true,
        editedArgs: { target: 7 },
      }),
    ).rejects.toMatchObject({ kind: "invalid_answer" });
    expect(client.entryFor("af-edit-bad", interrupt.id)).toBeUndefined();
    expect(await executions("af-edit-bad")).toHaveLength(0);
  });

  test("reject → applied, nothing runs", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-reject");

    const entry = await client.answer({ threadId: "af-reject", interruptId: interrupt.id, approved: false });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    expect(await executions("af-reject")).toHaveLength(0);
  });

  for (const [name, fault] of [
    ["the model call after the tool fails", { point: "after-tool", action: "fail" }],
    ["the connection drops after the tool result", { point: "mid-stream", action: "drop", afterEvents: 2 }],
  ] as const) {
    test(`${name}: the thread decides (applied, it shows the result), the answer is kept, one execution`, async () => {
      const threadId = `af-${fault.point}`;
      const client = await started();
      const interrupt = await askForDeployment(client, threadId);
      await peer.chaos([{ ...fault, threadId }]);

      const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
      const final = await settled(client, entry.key);

      // DESIGN.md, servers without the contract: RUN_STARTED means the tool ran, so a
      // failure after it is reconciled from the thread, never by resending blindly.
      expect(final).toMatchObject({ state: "applied", decision: { kind: "approve" }, attempts: 1 });
      expect(final.verdictDetail).toMatch(/confirmed from the conversation/);
      expect(client.entryFor(threadId, interrupt.id)?.key).toBe(entry.key);
      expect(client.thread(threadId).store.getState().pendingInterrupts).toEqual([]);
      expect(await executions(threadId)).toHaveLength(1);

      // A reload re-sends nothing: the verdict is durable.
      client.dispose();
      const reloaded = open();
      await reloaded.start();
      expect(reloaded.entryFor(threadId, interrupt.id)).toMatchObject({ key: entry.key, state: "applied" });
      expect(await executions(threadId)).toHaveLength(1);
    });
  }

  test("a duplicate after success (the page died with the answer in flight) → applied from its replay, once", async () => {
    // The first page's resume reaches the server and runs to the end, but the page
    // never reads the answer: it was closed. The reloaded page sends the same bytes.
    let deliver!: () => void;
    const delivered = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    const page = open((input, init) => {
      const response = fetch(input, init);
      if (!new Headers(init?.headers).has("idempotency-key")) return response;
      return response.then(async (answer) => {
        await answer.text();
        deliver();
        return new Promise<Response>(() => {});
      });
    });
    await page.start();
    const interrupt = await askForDeployment(page, "af-duplicate");
    const entry: OutboxEntry = await page.answer({
      threadId: "af-duplicate",
      interruptId: interrupt.id,
      approved: true,
    });
    await delivered;
    expect(await executions("af-duplicate")).toHaveLength(1);
    page.dispose();

    const reloaded = open();
    await reloaded.start();
    const final = await settled(reloaded, entry.key);

    expect(final.state).toBe("applied");
    expect(final.attempts).toBe(2);
    expect(await executions("af-duplicate")).toHaveLength(1);
  });
});
