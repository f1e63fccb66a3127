import { expect, test } from "vitest";
import { MemoryStore } from "../../src/outbox/memory-store";
import { askForDeployment, chaos, ledger, makeClient, settled, startHarness } from "./harness";

// An event of a type nobody knows, after the claim ack: the run is re-read and the
// answer sent again with the same key, and the entry says why (a typed invalid_event)
// before that second request goes.

const isResume = (init?: RequestInit) => new Headers(init?.headers).has("idempotency-key");

/** The first resume's stream: its first frame (RUN_STARTED with the ack), then an unknown event. */
function unknownEventAfterFirstFrame(): (input: string, init?: RequestInit) => Promise<Response> {
  let served = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!isResume(init) || served || !response.body) return response;
    served = true;
    const reader = response.body.getReader();
    let text = "";
    while (!text.includes("\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const first = text.slice(0, text.indexOf("\n\n") + 2);
    return new Response(`${first}data: {"type":"TELEPORT_STARTED"}\n\n`, {
      headers: { "content-type": "text/event-stream" },
    });
  };
}

test("an unknown event after the claim ack: invalid_event on the entry before the second request, applied once", async () => {
  const harness = await startHarness();
  const requests: Array<{ errorKind: string | undefined }> = [];
  const inner = unknownEventAfterFirstFrame();
  const client = makeClient(harness, {
    storage: new MemoryStore(),
    deps: {
      fetch: (input, init) => {
        if (isResume(init)) {
          const [entry] = client.outbox.getState().entries;
          requests.push({ errorKind: entry?.lastError?.kind });
        }
        return inner(input, init);
      },
    },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-teleport");
  // The run holds its claim a while, so the status read after the bad event finds it running.
  await chaos(harness, [{ point: "after-claim", action: "delay", delayMs: 3_000, threadId: "t-teleport" }]);

  const entry = await client.answer({ threadId: "t-teleport", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(1);
  // Two requests; when the second went, the entry said why.
  expect(requests).toEqual([{ errorKind: undefined }, { errorKind: "invalid_event" }]);
});
