import { expect, test } from "vitest";
import { batchProgress } from "../../src/outbox/batch-progress";
import { MemoryStore } from "../../src/outbox/memory-store";
import { ledger, makeClient, type RequestRecord, recordingFetch, settled, startHarness } from "./harness";

// A run that asks two questions ("deploy to prod and staging") is answered in
// one resume: AG-UI requires every open interrupt of a run in it. Asserted at
// the server: resume requests received per key, and the ledger.

async function askTwice(client: ReturnType<typeof makeClient>, threadId: string) {
  const thread = client.thread(threadId);
  await thread.send("deploy to prod and staging");
  const interrupts = thread.store.getState().pendingInterrupts;
  expect(interrupts).toHaveLength(2);
  return interrupts;
}

const resumes = (log: readonly RequestRecord[]) => log.filter((request) => request.idempotencyKey !== null);

// The af emulations read only the first resume entry (Agent Framework itself takes
// every approval response of the turn); until they read all, batches are tested
// on the contract server.
for (const mode of ["contract"] as const) {
  test(`${mode}: two questions answered → one request under one key, both applied, one execution per tool call`, async () => {
    const harness = await startHarness(mode === "contract" ? {} : { mode });
    const log: RequestRecord[] = [];
    const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
    await client.start();
    const [prod, staging] = await askTwice(client, "t-two");
    if (!prod || !staging) throw new Error("two interrupts expected");

    const first = await client.answer({ threadId: "t-two", interruptId: prod.id, approved: true });
    expect(first.state).toBe("held");
    expect(batchProgress(client.outbox.getState().entries, first)).toEqual({ answered: 1, total: 2 });
    expect(resumes(log)).toHaveLength(0);

    const second = await client.answer({ threadId: "t-two", interruptId: staging.id, approved: true });
    const [a, b] = await Promise.all([settled(client, first.key), settled(client, second.key)]);
    expect([a.state, b.state]).toEqual(["applied", "applied"]);
    const sent = resumes(log);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.idempotencyKey).toBe(second.key);
    const executions = await ledger(harness);
    expect(executions).toHaveLength(2);
    expect(new Set(executions.map((execution) => execution.toolCallId)).size).toBe(2);
  });
}

test("one approved, one rejected: each answer gets its own verdict, one execution", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const [prod, staging] = await askTwice(client, "t-mixed");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const approved = await client.answer({ threadId: "t-mixed", interruptId: prod.id, approved: true });
  const rejected = await client.answer({ threadId: "t-mixed", interruptId: staging.id, approved: false });
  expect((await settled(client, approved.key)).state).toBe("applied");
  expect((await settled(client, rejected.key)).state).toBe("applied");
  expect((await ledger(harness)).map((execution) => execution.args)).toEqual([{ target: "prod" }]);
});

test("a reload between the two answers keeps the first; the second sends both, once", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const log: RequestRecord[] = [];
  const page = makeClient(harness, { storage, deps: { fetch: recordingFetch(log) } });
  await page.start();
  const [prod, staging] = await askTwice(page, "t-reload");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = await page.answer({ threadId: "t-reload", interruptId: prod.id, approved: true });
  page.dispose();
  expect((await storage.get(first.key))?.state).toBe("held");

  const next = makeClient(harness, { storage, deps: { fetch: recordingFetch(log) } });
  await next.start();
  await next.thread("t-reload").hydrate();
  expect(next.entryFor("t-reload", prod.id)?.state).toBe("held");
  const second = await next.answer({ threadId: "t-reload", interruptId: staging.id, approved: true });
  expect((await settled(next, first.key)).state).toBe("applied");
  expect((await settled(next, second.key)).state).toBe("applied");
  expect(resumes(log)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(2);
});
