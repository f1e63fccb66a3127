import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type AgentFrameworkPeer,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../../mock-server/test/interop/agent-framework-peer";
import type { OutboxClient, OutboxClientOptions } from "../../src/client/create-outbox-client";
import type { OutboxEntry } from "../../src/outbox/entry";
import { createIsolatedClient } from "../../testing/isolated-client";
import { askForDeployment, entryReaches, settled } from "../integration/harness";

// Verdicts that claim exactly what the evidence shows, against the real Agent Framework
// server (ag-ui 1.7.0), where each of these was found: its explicit "nothing ran"
// (APPROVAL_TOOL_UNAVAILABLE) is evidence, and a read that succeeds replaces the failure
// of the reads before it.

const unavailable = peerUnavailableReason("current");
if (unavailable) console.warn(`skipped: ${unavailable}`);

describe("the real Agent Framework server (current release): evidence decides", () => {
  let peer: AgentFrameworkPeer;
  const clients: OutboxClient[] = [];

  beforeAll(async () => {
    if (unavailable === undefined) peer = await startAgentFrameworkPeer("current");
  }, 40_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.dispose();
    await peer?.reset();
  });

  async function started(
    options: Partial<OutboxClientOptions> = {},
    requests: string[] = [],
  ): Promise<OutboxClient> {
    const client = createIsolatedClient({
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-af-evidence",
      indexedDB: new IDBFactory(),
      ...options,
      deps: {
        fetch: (input, init) => {
          const key = new Headers(init?.headers).get("idempotency-key");
          if (key) requests.push(key);
          return fetch(input, init);
        },
      },
    });
    clients.push(client);
    await client.start();
    return client;
  }

  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  test.skipIf(unavailable !== undefined)(
    "the tool unavailable past the budget: stalled (nothing ran, the answer sendable), never lost; then it runs once",
    async () => {
      const threadId = "af-unavailable-budget";
      const requests: string[] = [];
      const client = await started(
        { retry: { backoff: { baseMs: 20, capMs: 200 }, budget: { maxAttempts: 3 } } },
        requests,
      );
      const interrupt = await askForDeployment(client, threadId);
      // Every request to the thread finds the tool without an implementation.
      await peer.chaos([{ point: "before-claim", action: "fail", threadId, times: 1000 }]);

      const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
      const stalled = await entryReaches(client, entry.key, ["stalled", "lost", "applied", "needs_user"]);

      // Each attempt was answered RUN_STARTED, then APPROVAL_TOOL_UNAVAILABLE: nothing ran.
      expect(await executions(threadId)).toHaveLength(0);
      expect(stalled).toMatchObject({ state: "stalled", attempts: 4 });
      expect(stalled.lastError).toMatchObject({ kind: "retry_budget_exhausted" });
      expect(stalled.verdictDetail).toMatch(/unavailable/);
      expect(stalled.verdictDetail).toMatch(/nothing ran/);
      expect(requests).toEqual([entry.key, entry.key, entry.key, entry.key]);
      // The question is still open on the server and the answer still pending here.
      expect(client.entryFor(threadId, interrupt.id)?.key).toBe(entry.key);

      // The tool is back: trying again sends the same bytes, and it runs once.
      await peer.reset();
      await client.retryNow(entry.key);
      const final = await settled(client, entry.key);
      expect(final).toMatchObject({ state: "applied", attempts: 5 });
      expect(requests).toEqual(Array.from({ length: 5 }, () => entry.key));
      expect(await executions(threadId)).toHaveLength(1);
    },
    30_000,
  );

  test.skipIf(unavailable !== undefined)(
    "killed inside the tool and restarted: lost with one execution, and no read failure left as the last error",
    async () => {
      const threadId = "af-killed-in-tool";
      const client = await started({ retry: { backoff: { baseMs: 20, capMs: 200 } } });
      const interrupt = await askForDeployment(client, threadId);
      await peer.chaos([{ point: "mid-tool", action: "delay", delayMs: 30_000, threadId }]);

      const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
      await expect.poll(() => executions(threadId), { timeout: 10_000 }).toHaveLength(1);
      await peer.kill();
      // The conversation cannot be read while the server is down.
      await readFailed(client, entry.key);
      await peer.restart();
      const final = await settled(client, entry.key, 30_000);

      // The restarted server has forgotten the thread: nothing shows whether the tool ran.
      expect(final).toMatchObject({ state: "lost", attempts: 1 });
      expect(await executions(threadId)).toHaveLength(1);
      expect(final.verdictDetail).toMatch(/cannot tell whether the action ran/);
      // The failure behind the verdict: the stream the kill cut, not the reads while it was down.
      expect(final.lastError).toMatchObject({ kind: "stream_ended" });
    },
    60_000,
  );
});

/** Resolves once a read of the entry's run or thread has failed (its last error says so). */
function readFailed(client: OutboxClient, key: string): Promise<OutboxEntry> {
  return new Promise((resolve) => {
    const check = () => {
      const entry = client.outbox.getState().entries.find((candidate) => candidate.key === key);
      if (entry && /Could not read/.test(entry.lastError?.message ?? "")) {
        unsubscribe();
        resolve(entry);
      }
    };
    const unsubscribe = client.outbox.subscribe(check);
    check();
  });
}
