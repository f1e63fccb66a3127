import { expect, test } from "vitest";
import { askForDeployment, chaos, ledger, makeClient, settled, startHarness } from "./harness";

test("an approved answer is applied once and the thread shows the result", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-approve");

  const entry = await client.answer({ threadId: "t-approve", interruptId: interrupt.id, approved: true });
  expect(entry.state).toBe("queued");
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(1);
  const thread = client.thread("t-approve").store.getState();
  expect(thread.pendingInterrupts).toEqual([]);
  expect(
    thread.messages.some(
      (message) => message.role === "assistant" && message.content === "Deployed to prod.",
    ),
  ).toBe(true);
});

test("a failure after the tool is retried with the same key: applied, one execution", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "after-tool", action: "fail" }]);
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-after-tool");

  const entry = await client.answer({ threadId: "t-after-tool", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(final.attempts).toBe(2);
  expect(await ledger(harness)).toHaveLength(1);
});
