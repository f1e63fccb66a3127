// Two hydrations of one thread in flight, the older one read late: its snapshot
// was taken before the newer one's, so applied last it would put the thread back
// in time — and a verdict read from the thread then would miss a tool result the
// page had already shown (a false "lost", found by the soak on af-legacy).
import { expect, test } from "vitest";
import { makeClient, startHarness } from "./harness";

test("an older hydration answered last does not replace the newer snapshot", async () => {
  const harness = await startHarness();
  const other = makeClient(harness);
  await other.thread("t-order").send("hello");

  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  let firstInHand!: () => void;
  const firstArrived = new Promise<void>((resolve) => {
    firstInHand = resolve;
  });
  let hydrations = 0;
  const client = makeClient(harness, {
    deps: {
      fetch: async (input, init) => {
        const body =
          typeof init?.body === "string" ? (JSON.parse(init.body) as { messages?: unknown[] }) : {};
        const hydration = init?.method === "POST" && body.messages?.length === 0;
        const first = hydration && ++hydrations === 1;
        const response = await fetch(input, init);
        if (first) {
          // The server answered with the snapshot it had then; the page reads it late.
          firstInHand();
          await firstHeld;
        }
        return response;
      },
    },
  });
  await client.start();
  const thread = client.thread("t-order");
  const older = thread.hydrate();
  await firstArrived;
  // The conversation moves on at the server, and a newer hydration shows it.
  await other.thread("t-order").send("and then this");
  await thread.hydrate();
  const texts = () => thread.store.getState().messages.map((message) => message.content);
  expect(texts()).toContain("and then this");

  releaseFirst();
  await older;
  expect(texts()).toContain("and then this");
  other.dispose();
  client.dispose();
});
