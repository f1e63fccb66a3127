import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type PydanticAiPeer,
  pydanticAiPeerUnavailableReason,
  startPydanticAiPeer,
} from "../../../mock-server/test/interop/pydantic-ai-peer";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { createIsolatedClient } from "../../src/testing/isolated-client";
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

  async function started(): Promise<OutboxClient> {
    const client = createIsolatedClient({
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-pydantic-ai-evidence",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      indexedDB: new IDBFactory(),
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
});
