import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type PydanticAiPeer,
  pydanticAiPeerUnavailableReason,
  startPydanticAiPeer,
} from "../../../mock-server/test/interop/pydantic-ai-peer";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { createIsolatedClient } from "../../testing/isolated-client";
import { askForDeployment, settled } from "../integration/harness";

// Verdicts that claim exactly what the evidence shows, against pydantic-ai's real AG-UI
// adapter (history on the server), where this was found: a tool result seen on the
// stream is evidence the tool ran, even when the end of the run never arrives. Its
// answer to a hydration of a finished conversation is a refusal, not the network.

const unavailable = pydanticAiPeerUnavailableReason();
if (unavailable) console.warn(`skipped: ${unavailable}`);

/** A resume's stream there: RUN_STARTED, TOOL_CALL_RESULT, three text frames, CUSTOM, RUN_FINISHED. */
const FRAMES_BEFORE_RUN_FINISHED = 6;

describe("the real pydantic-ai AG-UI server: evidence decides", () => {
  let peer: PydanticAiPeer;
  const clients: OutboxClient[] = [];

  beforeAll(async () => {
    if (unavailable === undefined) peer = await startPydanticAiPeer("server");
  }, 40_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.dispose();
    await peer?.reset();
  });

  /** A page's client; the same `indexedDB` again is a reload. */
  async function started(
    indexedDB = new IDBFactory(),
    fetchImpl?: (input: string, init?: RequestInit) => Promise<Response>,
  ): Promise<OutboxClient> {
    const client = createIsolatedClient({
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-pydantic-ai-evidence",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      indexedDB,
      ...(fetchImpl ? { deps: { fetch: fetchImpl } } : {}),
    });
    clients.push(client);
    await client.start();
    return client;
  }

  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  test.skipIf(unavailable !== undefined)(
    "the stream drops just before RUN_FINISHED, after the tool's result: applied (it ran, the end unseen), sent once",
    async () => {
      const threadId = "pyd-drop-before-finish";
      const client = await started();
      const interrupt = await askForDeployment(client, threadId);
      const asked = await peer.requests(threadId);
      await peer.chaos([
        { point: "mid-stream", action: "drop", afterEvents: FRAMES_BEFORE_RUN_FINISHED, threadId },
      ]);

      const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
      const final = await settled(client, entry.key);

      expect(await executions(threadId)).toHaveLength(1);
      expect(final).toMatchObject({ state: "applied", attempts: 1, replayed: false });
      expect(final.verdictDetail).toMatch(/ran/);
      expect(final.verdictDetail).toMatch(/end of the run was not seen/);
      // The answer, and no resend (a resend runs the tool again there).
      expect((await peer.requests(threadId)) - asked).toBe(1);
    },
    20_000,
  );

  test.skipIf(unavailable !== undefined)(
    "the page dies after RUN_STARTED, the run ends on the server: its refused hydration is not the network; lost, once",
    async () => {
      const threadId = "pyd-reload-after-start";
      const device = new IDBFactory();
      let acked!: () => void;
      const sawRunStarted = new Promise<void>((resolve) => {
        acked = resolve;
      });
      // The first page gets RUN_STARTED of its resume, then nothing more: it dies there,
      // while the server runs the tool and saves the finished conversation.
      const page = await started(device, async (input, init) => {
        const response = await fetch(input, init);
        if (!new Headers(init?.headers).has("idempotency-key")) return response;
        const whole = await response.text();
        const first = whole.slice(0, whole.indexOf("\n\n") + 2);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(first));
            acked();
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      });
      const interrupt = await askForDeployment(page, threadId);
      const entry = await page.answer({ threadId, interruptId: interrupt.id, approved: true });
      await sawRunStarted;
      await expect.poll(() => page.entryFor(threadId, interrupt.id)?.state).toBe("streaming");
      expect(await executions(threadId)).toHaveLength(1);
      page.dispose();
      const before = await peer.requests(threadId);

      const reloaded = await started(device);
      const final = await settled(reloaded, entry.key);

      // Nothing this page can read shows the result: the evidence is missing, so lost.
      expect(final).toMatchObject({ state: "lost", attempts: 1 });
      expect(final.lastError?.message).toMatch(/Processed history must end with a `ModelRequest`/);
      expect(await executions(threadId)).toHaveLength(1);
      // No resend; the refused hydration is read once, not for ever.
      expect((await peer.requests(threadId)) - before).toBeLessThanOrEqual(2);
    },
    20_000,
  );
});
