// A message sent while the thread's hydration is still on its way: the snapshot the
// hydration brings was taken before the message, so applied after the message's
// events it would wipe them (the question and the tool call the card is chosen by
// included). The message waits for the hydration, then goes with the thread's history.
import { expect, test } from "vitest";
import { makeClient, startHarness } from "./harness";

test("a message sent during a slow hydration keeps its events and carries the history", async () => {
  const harness = await startHarness();
  // An earlier visit: the thread already holds one exchange at the server.
  const earlier = makeClient(harness);
  await earlier.thread("t-slow-hydrate").send("hello");
  earlier.dispose();

  let releaseHydration!: () => void;
  const hydrationHeld = new Promise<void>((resolve) => {
    releaseHydration = resolve;
  });
  let hydrationArrived!: () => void;
  const hydrationInHand = new Promise<void>((resolve) => {
    hydrationArrived = resolve;
  });
  let released = false;
  const sentHistories: number[] = [];
  const sentWhileHeld: number[] = [];
  const client = makeClient(harness, {
    deps: {
      fetch: async (input, init) => {
        const body =
          typeof init?.body === "string" ? (JSON.parse(init.body) as { messages?: unknown[] }) : {};
        if (body.messages && body.messages.length > 0) {
          sentHistories.push(body.messages.length);
          if (!released) sentWhileHeld.push(body.messages.length);
        }
        const response = await fetch(input, init);
        if (init?.method === "POST" && body.messages?.length === 0 && !input.endsWith("/capabilities")) {
          // The server answered with the snapshot at once; the page reads it late.
          hydrationArrived();
          await hydrationHeld;
        }
        return response;
      },
    },
  });
  await client.start();
  const thread = client.thread("t-slow-hydrate");
  const hydrated = thread.hydrate();
  const sent = thread.send("please deploy to prod");
  // The message started with the hydration, which needed the network: a message that
  // did not wait would have gone by now.
  await hydrationInHand;
  expect(sentWhileHeld).toEqual([]);
  released = true;
  releaseHydration();
  await Promise.all([hydrated, sent]);

  const state = thread.store.getState();
  expect(state.pendingInterrupts).toHaveLength(1);
  const texts = state.messages.map((message) => message.content);
  expect(texts).toContain("please deploy to prod");
  expect(texts).toContain("hello");
  const toolCalls = state.messages.flatMap((message) =>
    message.role === "assistant" ? (message.toolCalls ?? []) : [],
  );
  expect(toolCalls.map((call) => call.function.name)).toEqual(["deploy_change"]);
  // The message's run was sent with the earlier exchange and the new message.
  expect(sentHistories.at(-1)).toBeGreaterThan(1);
});
