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

test("a double click makes one entry and one execution", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-double");

  const [a, b] = await Promise.all([
    client.answer({ threadId: "t-double", interruptId: interrupt.id, approved: true }),
    client.answer({ threadId: "t-double", interruptId: interrupt.id, approved: true }),
  ]);
  expect(b.key).toBe(a.key);
  await settled(client, a.key);
  expect(client.outbox.getState().entries).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("reject and cancel are applied and run no tool", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const first = await askForDeployment(client, "t-reject");
  const second = await askForDeployment(client, "t-cancel");

  const rejected = await client.answer({ threadId: "t-reject", interruptId: first.id, approved: false });
  const cancelled = await client.answer({ threadId: "t-cancel", interruptId: second.id, cancelled: true });

  expect((await settled(client, rejected.key)).state).toBe("applied");
  expect((await settled(client, cancelled.key)).state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(0);
});

test("edited arguments are what the tool runs with", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-edit");

  const entry = await client.answer({
    threadId: "t-edit",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: "canary" },
  });
  expect((await settled(client, entry.key)).state).toBe("applied");
  expect((await ledger(harness)).map((execution) => execution.args)).toEqual([{ target: "canary" }]);
});

test("another browser answered differently first: answered elsewhere, with its decision, and one execution", async () => {
  const harness = await startHarness();
  const phone = makeClient(harness, { dbName: "phone" });
  const laptop = makeClient(harness, { dbName: "laptop", storage: "memory" });
  await phone.start();
  await laptop.start();
  const interrupt = await askForDeployment(phone, "t-race");
  await laptop.thread("t-race").hydrate();

  const approved = await phone.answer({ threadId: "t-race", interruptId: interrupt.id, approved: true });
  expect((await settled(phone, approved.key)).state).toBe("applied");
  const rejected = await laptop.answer({ threadId: "t-race", interruptId: interrupt.id, approved: false });
  const final = await settled(laptop, rejected.key);

  expect(final.state).toBe("elsewhere");
  expect(final.decision).toEqual({ kind: "reject" });
  expect(final.recordedDecisions).toEqual([
    { interruptId: interrupt.id, status: "resolved", payload: { approved: true } },
  ]);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a stale card (the server never had it pending): needs you, the answer kept, the thread re-read", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-stale");
  // The server loses the thread; the card on screen is now stale.
  await fetch(`${harness.server.url}/__reset`, { method: "POST" });

  const entry = await client.answer({ threadId: "t-stale", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("needs_user");
  expect(final.lastError?.code).toBe("APPROVAL_RESUME_NOT_FOUND");
  expect(final.decision).toEqual({ kind: "approve" });
  await expect.poll(() => client.thread("t-stale").store.getState().pendingInterrupts).toEqual([]);
  expect(await ledger(harness)).toHaveLength(0);
});

test("an interrupt cut off mid-tool: lost, the answer kept with an explanation, never re-run", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-indeterminate");
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);

  const entry = await client.answer({
    threadId: "t-indeterminate",
    interruptId: interrupt.id,
    approved: true,
  });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("lost");
  expect(final.verdictDetail).toBeTruthy();
  expect(final.decision).toEqual({ kind: "approve" });
  expect(final.attempts).toBe(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("an expired interrupt: needs you, the answer kept, no execution", async () => {
  // The server's clock runs ahead on demand: the interrupt expires when the test says.
  let ahead = 0;
  const harness = await startHarness({ interruptTtlMs: 60_000, clock: { now: () => Date.now() + ahead } });
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-expired");
  ahead = 60_000;

  const entry = await client.answer({ threadId: "t-expired", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("needs_user");
  expect(final.lastError?.code).toBe("APPROVAL_RESUME_EXPIRED");
  expect(final.decision).toEqual({ kind: "approve" });
  expect(await ledger(harness)).toHaveLength(0);
});
