import { expect, test } from "vitest";
import { MemoryStore } from "../../src/outbox/memory-store";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

// A server without the contract whose every hydration stream is cut: each cut read
// spends the read budget, and the answer is decided on what the client holds, instead
// of hydrating again without end.

const isResume = (init?: RequestInit) => new Headers(init?.headers).has("idempotency-key");

/** The response's first frame (RUN_STARTED), then the end of the stream. */
async function firstFrameOnly(response: Response): Promise<Response> {
  const whole = await response.text();
  return new Response(whole.slice(0, whole.indexOf("\n\n") + 2), {
    headers: { "content-type": "text/event-stream" },
  });
}

test("hydrations cut every time: three reads (the budget), then lost from what is in hand, one execution", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  let cut = false;
  let hydrations = 0;
  const client = makeClient(harness, {
    storage: new MemoryStore(),
    retry: { budget: { maxAttempts: 3 } },
    deps: {
      // No backoff: the reads follow each other at once.
      random: () => 0,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!cut || init?.method !== "POST") return response;
        if (!isResume(init)) hydrations += 1;
        return firstFrameOnly(response);
      },
    },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-cut-reads");
  cut = true;

  const entry = await client.answer({ threadId: "t-cut-reads", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(hydrations).toBe(3);
  // The tool ran on the server; nothing this client could read shows it.
  expect(await ledger(harness)).toHaveLength(1);
  expect(final).toMatchObject({ state: "lost", attempts: 1 });
  expect(final.lastError?.message).toMatch(/^Could not read the conversation \(3 time\(s\) in a row\)/);
});
