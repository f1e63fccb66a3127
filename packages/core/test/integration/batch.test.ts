import { expect, test } from "vitest";
import { batchProgress } from "../../src/outbox/batch-progress";
import { MemoryStore } from "../../src/outbox/memory-store";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import {
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  resumes,
  settled,
  startHarness,
} from "./harness";

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

// On the contract server and on af-lifecycle (Agent Framework 1.7.0, which runs every
// approved call of the resume) both run; af-legacy (1.0.1) is below.
for (const mode of ["contract", "af-lifecycle"] as const) {
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

/**
 * Storage whose writes hang after `allowed` of them: the page died right there.
 * `frozen` settles on the first write that hangs.
 */
function freezingAfter(store: OutboxStore, allowed: number): { store: OutboxStore; frozen: Promise<void> } {
  let writes = 0;
  let freeze = () => {};
  const frozen = new Promise<void>((resolve) => {
    freeze = resolve;
  });
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "put" && property !== "commit" && property !== "putIfAbsentForInterrupt")
        return method;
      return (...args: unknown[]) => {
        writes += 1;
        if (writes > allowed) {
          freeze();
          return new Promise(() => {});
        }
        return method(...args);
      };
    },
  });
  return { store: proxy, frozen };
}

test("a reload that cuts the seal short: the next start seals the rest and sends both, once", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const log: RequestRecord[] = [];
  // Two answers written, then the first of the seal's two writes: the page dies there.
  const freezing = freezingAfter(storage, 3);
  const page = makeClient(harness, { storage: freezing.store });
  await page.start();
  const [prod, staging] = await askTwice(page, "t-cut");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = await page.answer({ threadId: "t-cut", interruptId: prod.id, approved: true });
  void page.answer({ threadId: "t-cut", interruptId: staging.id, approved: true });
  await freezing.frozen;
  page.dispose();
  const stored = await storage.listByNamespace("user-1");
  expect(stored.map((entry) => entry.state).sort()).toEqual(["held", "queued"]);

  const next = makeClient(harness, { storage, deps: { fetch: recordingFetch(log) } });
  await next.start();
  const second = stored.find((entry) => entry.key !== first.key);
  if (!second) throw new Error("no second entry");
  expect((await settled(next, first.key)).state).toBe("applied");
  expect((await settled(next, second.key)).state).toBe("applied");
  expect(resumes(log)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(2);
});

test("a reload before the seal: the next start seals the two held answers into one request, under one key", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const log: RequestRecord[] = [];
  // Both answers written, none of the seal's writes: the page dies there.
  const freezing = freezingAfter(storage, 2);
  const page = makeClient(harness, { storage: freezing.store });
  await page.start();
  const [prod, staging] = await askTwice(page, "t-unsealed");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = await page.answer({ threadId: "t-unsealed", interruptId: prod.id, approved: true });
  void page.answer({ threadId: "t-unsealed", interruptId: staging.id, approved: true });
  await freezing.frozen;
  page.dispose();
  const stored = await storage.listByNamespace("user-1");
  expect(stored.map((entry) => entry.state)).toEqual(["held", "held"]);

  const next = makeClient(harness, { storage, deps: { fetch: recordingFetch(log) } });
  await next.start();
  const second = stored.find((entry) => entry.key !== first.key);
  if (!second) throw new Error("no second entry");
  const [a, b] = await Promise.all([settled(next, first.key), settled(next, second.key)]);
  expect([a.state, b.state]).toEqual(["applied", "applied"]);
  // One of them sent for both: never two senders, never two followers of each other.
  expect([a, b].filter((entry) => entry.batch?.sendsWith === undefined)).toHaveLength(1);
  const sent = resumes(log);
  expect(sent).toHaveLength(1);
  expect([first.key, second.key]).toContain(sent[0]?.idempotencyKey);
  expect(await ledger(harness)).toHaveLength(2);
});

// Agent Framework 1.0.1 (af-legacy) takes only the first entry of a resume: the other
// question is neither run nor consumed. Its answer is not applied and not lost:
// nothing ran for it, and it is kept for the person to send again on its own.
test("af-legacy: two questions answered → one request; the first applied, the other kept (nothing ran), ledger 1", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const log: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
  await client.start();
  const [prod, staging] = await askTwice(client, "t-legacy");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = await client.answer({ threadId: "t-legacy", interruptId: prod.id, approved: true });
  const second = await client.answer({ threadId: "t-legacy", interruptId: staging.id, approved: true });
  const [a, b] = await Promise.all([settled(client, first.key), settled(client, second.key)]);
  const sent = resumes(log);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.idempotencyKey).toBe(second.key);
  // The one the body lists first ran (the sender's own answer leads the body).
  const executions = await ledger(harness);
  expect(executions).toHaveLength(1);
  const ranFor = executions[0]?.toolCallId;
  const [ran, skipped] = a.toolCallId === ranFor ? [a, b] : [b, a];
  expect(ran.toolCallId).toBe(ranFor);
  expect(ran.state).toBe("applied");
  expect(skipped.state).toBe("needs_user");
  expect(skipped.verdictDetail).toMatch(/did not run/);
  expect(skipped.decision).toEqual({ kind: "approve" });
});

test("af-legacy: two rejections in one request; the one it read is delivered, the other kept (still open there)", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const client = makeClient(harness);
  await client.start();
  const [prod, staging] = await askTwice(client, "t-legacy-reject");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = await client.answer({ threadId: "t-legacy-reject", interruptId: prod.id, approved: false });
  const second = await client.answer({
    threadId: "t-legacy-reject",
    interruptId: staging.id,
    approved: false,
  });
  const final = await Promise.all([settled(client, first.key), settled(client, second.key)]);
  expect(final.map((entry) => entry.state).sort()).toEqual(["applied", "needs_user"]);
  expect(await ledger(harness)).toHaveLength(0);
});

// Agent Framework 1.7.0 given one approval and one rejection in one resume runs neither,
// asks the rejected question again and keeps the approved one pending without showing it
// (af-lifecycle reproduces it; release check `batch-mixed`). Neither answer is "applied",
// and the person can answer both again: the next batch carries both questions.
test("af-lifecycle, one approved and one rejected: neither applied, ledger 0; both answered again → one request, both run", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const log: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
  await client.start();
  const [prod, staging] = await askTwice(client, "t-af-mixed");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const approved = await client.answer({ threadId: "t-af-mixed", interruptId: prod.id, approved: true });
  const rejected = await client.answer({ threadId: "t-af-mixed", interruptId: staging.id, approved: false });
  const first = [await settled(client, approved.key), await settled(client, rejected.key)];
  expect(first.map((entry) => entry.state)).toEqual(["needs_user", "needs_user"]);
  // The answers are kept, each with a reason that does not claim the other was taken.
  expect(first.map((entry) => entry.decision.kind)).toEqual(["approve", "reject"]);
  for (const entry of first) expect(entry.verdictDetail).not.toMatch(/took only the other/);
  expect(await ledger(harness)).toHaveLength(0);
  expect(resumes(log)).toHaveLength(1);

  // The server shows only the rejected question; the person answers both again.
  expect(
    client
      .thread("t-af-mixed")
      .store.getState()
      .pendingInterrupts.map((one) => one.id),
  ).toEqual([staging.id]);
  const stagingAgain = await client.answer({
    threadId: "t-af-mixed",
    interruptId: staging.id,
    approved: true,
  });
  expect(stagingAgain.state).toBe("held");
  expect(batchProgress(client.outbox.getState().entries, stagingAgain)).toEqual({ answered: 1, total: 2 });
  const prodAgain = await client.answer({ threadId: "t-af-mixed", interruptId: prod.id, approved: true });
  expect(prodAgain.key).not.toBe(approved.key);
  const second = [await settled(client, prodAgain.key), await settled(client, stagingAgain.key)];
  expect(second.map((entry) => entry.state)).toEqual(["applied", "applied"]);
  expect(resumes(log)).toHaveLength(2);
  // In the order of the resume, which follows the interrupt ids.
  expect(
    (await ledger(harness)).map((execution) => (execution.args as { target: string }).target).sort(),
  ).toEqual(["prod", "staging"]);
});

test("af-lifecycle, the same mixed answers again: needs you again, nothing sent without the person", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const log: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
  await client.start();
  const [prod, staging] = await askTwice(client, "t-af-mixed-again");
  if (!prod || !staging) throw new Error("two interrupts expected");
  for (let round = 0; round < 2; round += 1) {
    const no = await client.answer({
      threadId: "t-af-mixed-again",
      interruptId: staging.id,
      approved: false,
    });
    const ok = await client.answer({ threadId: "t-af-mixed-again", interruptId: prod.id, approved: true });
    // Each round is one batch of both answers, not a lone answer the server refuses.
    expect(no.state).toBe("held");
    const settledBoth = [await settled(client, ok.key), await settled(client, no.key)];
    expect(settledBoth.map((entry) => entry.state)).toEqual(["needs_user", "needs_user"]);
    expect(settledBoth.map((entry) => entry.lastError?.code)).not.toContain(
      "APPROVAL_RESUME_MISSING_INTERRUPT",
    );
    expect(resumes(log)).toHaveLength(round + 1);
  }
  expect(await ledger(harness)).toHaveLength(0);
});

test("af-lifecycle, after a mixed batch the answers flipped: the kept approval runs both; the rejection is never shown applied", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const client = makeClient(harness);
  await client.start();
  const [prod, staging] = await askTwice(client, "t-af-flipped");
  if (!prod || !staging) throw new Error("two interrupts expected");
  const first = [
    await client.answer({ threadId: "t-af-flipped", interruptId: prod.id, approved: true }),
    await client.answer({ threadId: "t-af-flipped", interruptId: staging.id, approved: false }),
  ];
  for (const entry of first) expect((await settled(client, entry.key)).state).toBe("needs_user");
  const rejectProd = await client.answer({ threadId: "t-af-flipped", interruptId: prod.id, approved: false });
  const approveStaging = await client.answer({
    threadId: "t-af-flipped",
    interruptId: staging.id,
    approved: true,
  });
  expect((await settled(client, approveStaging.key)).state).toBe("applied");
  // 1.7.0 ran prod on the approval it kept: the rejection did not hold, and the verdict says so.
  expect((await settled(client, rejectProd.key)).state).toBe("elsewhere");
  expect(await ledger(harness)).toHaveLength(2);
});
