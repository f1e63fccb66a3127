import { MemoryStore } from "@agui-outbox/core";
import { AgentHttp, parseRetryAfter } from "@agui-outbox/core/internal";
import { expect, test } from "vitest";
import { chaos, ledger, startHarness } from "../../core/test/integration/harness";
import { VirtualTime } from "../../core/test/support/virtual-time";
import type { BackgroundRunRecord } from "../src/background-run-record";
import { BackgroundRuns } from "../src/background-runs";
import {
  answer,
  expectAppliedOnce,
  faultsFired,
  heldWhen,
  isAsking,
  isFinal,
  makeRunner,
  occurrences,
  openPageStore,
  rawPoll,
  recordingThreads,
  runReaches,
  storedRun,
  texts,
} from "./background-support";

// The deploy asks before its tool: the first poll ends at the question (status
// `interrupted`), the test answers it as the outbox would (the tool runs in that
// resume), and the runner polls on. Starts and cut-off tools: background-start
// and background-cut tests.

test("start → question → answer → polls → completed: the tool ran once and the thread shows its result", async () => {
  const harness = await startHarness();
  const store = new MemoryStore();
  const { threads, applied } = recordingThreads();
  const setup = makeRunner(harness, { store, threads });
  const { runner, polls, time } = setup;
  await runner.resumeAll();
  runner.activate();

  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-bg", text: "please deploy to prod" });
  expect(started.verdict).toBe("polling");
  expect(started.continuationToken).toMatch(/^bgt_/);
  // The record is durable before the first poll.
  expect(await storedRun(store, started.runId)).toMatchObject({
    runId: started.runId,
    continuationToken: started.continuationToken,
  });
  const asked = await asking;
  expect(asked).toMatchObject({ verdict: "polling", status: "interrupted" });
  expect(threads.get("t-bg").run.name).toBe("interrupted");
  expect(await ledger(harness)).toHaveLength(0);

  const resume = await answer(harness, threads, asked);
  expect(occurrences(resume, '"TOOL_CALL_RESULT"')).toBe(1);
  expect(await ledger(harness)).toHaveLength(1);
  time.release();

  const done = await runReaches(runner, started.runId, isFinal);
  expect(done).toMatchObject({ verdict: "completed", status: "completed", continuationToken: null });
  expect(polls.map((poll) => [poll.token, poll.status])).toEqual([
    [started.continuationToken, 200],
    [asked.continuationToken, 200],
    [expect.stringMatching(/^bgt_/), 200],
  ]);
  expect(await ledger(harness)).toHaveLength(1);
  expect(texts(threads, "t-bg")).toContain("Deployed to prod.");
  expect(threads.get("t-bg").run.name).toBe("finished");
  expect(threads.get("t-bg").pendingInterrupts).toEqual([]);
  expectAppliedOnce(applied, started.runId);
  expect(done.lastSeq).toBe(applied.at(-1)?.seq);
  expect(await storedRun(store, started.runId)).toEqual(done);
});

test("a reload while the run goes on: the next runner polls with the persisted token, nothing repeats", async () => {
  const harness = await startHarness();
  const store = await openPageStore(harness);
  const { threads, applied } = recordingThreads();
  const first = makeRunner(harness, { store, threads });
  first.runner.activate();
  // Held at the question: the first runner never polls again.
  const asking = heldWhen(first, isAsking);
  const started = await first.runner.start({ threadId: "t-reload", text: "please deploy to prod" });
  const asked = await asking;
  await answer(harness, threads, asked);
  first.runner.dispose();
  expect(first.polls).toHaveLength(1);
  expect(asked.continuationToken).not.toBe(started.continuationToken);
  expect(await ledger(harness)).toHaveLength(1);
  store.close();

  // The next page: a new connection to the same database, a new runner.
  const nextStore = await openPageStore(harness);
  const persisted = (await storedRun(nextStore, started.runId)) as BackgroundRunRecord;
  expect(persisted.continuationToken).toBe(asked.continuationToken);
  expect(persisted.lastSeq).toBe(asked.lastSeq);
  const next = makeRunner(harness, { store: nextStore, threads });
  const resumed = await next.runner.resumeAll();
  expect(resumed.map((run) => run.runId)).toEqual([started.runId]);
  next.runner.activate();
  const done = await runReaches(next.runner, started.runId, isFinal);

  expect(done.verdict).toBe("completed");
  expect(next.polls.map((poll) => poll.token)).toEqual([persisted.continuationToken, expect.any(String)]);
  expect(next.polls[1]?.token).not.toBe(persisted.continuationToken);
  expect(await ledger(harness)).toHaveLength(1);
  expectAppliedOnce(applied, started.runId);
  expect(texts(threads, "t-reload").filter((text) => text === "Deployed to prod.")).toHaveLength(1);
  expect(await storedRun(nextStore, started.runId)).toEqual(done);
  nextStore.close();
});

test("submission answered 429: the same token is polled again no earlier than Retry-After, the tool runs once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "background-submit", action: "status", status: 429, retryAfterMs: 1000 }]);
  const { threads, applied } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, polls, time } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-429", text: "please deploy to prod" });
  await answer(harness, threads, await asking);
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done.verdict).toBe("completed");
  // question → (answer runs the tool) → submission 429 → re-poll (same token: resubmits the stored result) → completed
  expect(polls.map((poll) => poll.status)).toEqual([200, 429, 200, 200]);
  const [, refused, repoll, last] = polls;
  expect(repoll?.token).toBe(refused?.token);
  expect(last?.token).not.toBe(refused?.token);
  expect((repoll?.sentAt ?? 0) - (refused?.answeredAt ?? 0)).toBeGreaterThanOrEqual(1000);
  expect(await ledger(harness)).toHaveLength(1);
  expectAppliedOnce(applied, started.runId);
});

test("submission refused for good: lost, the record kept with the raw code, the tool ran once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "background-submit", action: "fail" }]);
  const store = new MemoryStore();
  const { threads } = recordingThreads();
  const setup = makeRunner(harness, { store, threads });
  const { runner, polls, time } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-rejected", text: "please deploy to prod" });
  await answer(harness, threads, await asking);
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done).toMatchObject({
    verdict: "lost",
    status: "failed",
    rule: "background-delivery-rejected",
    lastError: { code: "BACKGROUND_TOOL_DELIVERY_REJECTED" },
  });
  expect(done.verdictReason).toMatch(/ran/);
  // The question, then the poll whose submission was refused.
  expect(polls.map((poll) => poll.status)).toEqual([200, 200]);
  expect(await ledger(harness)).toHaveLength(1);
  expect(threads.get("t-rejected").run).toMatchObject({
    name: "failed",
    code: "BACKGROUND_TOOL_DELIVERY_REJECTED",
  });
  expect(await storedRun(store, started.runId)).toEqual(done);
  await expect(runner.discard(started.runId)).resolves.toBeUndefined();
  expect(await storedRun(store, started.runId)).toBeUndefined();
});

test("a concurrent poll of the same token: IN_PROGRESS is retried, then the run completes once", async () => {
  const harness = await startHarness();
  const { threads, applied } = recordingThreads();
  // Jitter on: the retry after IN_PROGRESS waits on a (held) timer instead of going at once.
  const setup = makeRunner(harness, { store: new MemoryStore(), threads, random: () => 0.5 });
  const { runner, time, polls, statusReads } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-concurrent", text: "please deploy to prod" });
  const asked = await asking;
  await answer(harness, threads, asked);
  const token = asked.continuationToken ?? "";

  // Another poller holds the token: its submission is slow.
  await chaos(harness, [{ point: "background-submit", action: "delay", delayMs: 400 }]);
  const competing = rawPoll(harness, token);
  await faultsFired(harness);

  const waiting = heldWhen(setup, (run) => run.verdict === "retry_wait");
  time.release();
  expect(await waiting).toMatchObject({
    rule: "background-poll-in-progress",
    continuationToken: token,
    lastError: { code: "BACKGROUND_POLL_IN_PROGRESS" },
  });
  const other = await competing;
  expect(other).toMatchObject({ status: 200, body: { status: "in_progress" } });
  const movedOn = (other.body as { continuationToken: string }).continuationToken;

  time.release();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  // The question; IN_PROGRESS; then STALE, since the other poll moved on: the status names its token.
  expect(polls.map((poll) => [poll.token, poll.status])).toEqual([
    [started.continuationToken, 200],
    [token, 409],
    [token, 409],
    [movedOn, 200],
  ]);
  expect(statusReads).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
  // The events the other poller received were filled in from the run's log.
  expect(texts(threads, "t-concurrent")).toContain("Deployed to prod.");
  expectAppliedOnce(applied, started.runId);
});

test("a stale token: the run status names the current one, polling goes on with it", async () => {
  const harness = await startHarness();
  const { threads, applied } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, polls, statusReads, time } = setup;
  const started = await runner.start({ threadId: "t-stale", text: "please deploy to prod" });
  // Someone else advanced the run with the token this runner holds.
  const advanced = await rawPoll(harness, started.continuationToken ?? "");
  const current = (advanced.body as { continuationToken: string }).continuationToken;
  expect(advanced).toMatchObject({ status: 200, body: { status: "interrupted" } });

  const asking = heldWhen(setup, isAsking);
  runner.activate();
  await answer(harness, threads, await asking);
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(polls.map((poll) => [poll.token, poll.status])).toEqual([
    [started.continuationToken, 409],
    [current, 200],
    [current, 200],
    [expect.not.stringMatching(current), 200],
  ]);
  expect(statusReads).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
  expectAppliedOnce(applied, started.runId);
});

test("an unknown token (the server forgot the run): status, hydrate, then needs_user with the raw code", async () => {
  const harness = await startHarness();
  const { threads } = recordingThreads();
  const hydrated: string[] = [];
  const { runner } = makeRunner(harness, {
    store: new MemoryStore(),
    threads,
    hydrate: async (threadId) => {
      hydrated.push(threadId);
    },
  });
  const started = await runner.start({ threadId: "t-unknown", text: "please deploy to prod" });
  await fetch(`${harness.server.url}/__reset`, { method: "POST" });

  runner.activate();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done).toMatchObject({
    verdict: "needs_user",
    rule: "background-token-unknown",
    lastError: { code: "BACKGROUND_TOKEN_UNKNOWN" },
  });
  expect(hydrated).toEqual(["t-unknown"]);
  expect(await ledger(harness)).toHaveLength(0);
});

test("transient poll failures (503 with Retry-After) keep the token; polling waits while inactive", async () => {
  const harness = await startHarness();
  const { threads } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, polls, time } = setup;
  // Not active: start records the run but nothing polls.
  const started = await runner.start({ threadId: "t-503", text: "please deploy to prod" });
  expect(polls).toHaveLength(0);
  await chaos(harness, [{ point: "before-response", action: "status", status: 503, retryAfterMs: 2000 }]);
  const asking = heldWhen(setup, isAsking);
  runner.activate();
  await answer(harness, threads, await asking);
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(polls.map((poll) => poll.status)).toEqual([503, 200, 200, 200]);
  const [failed, retried] = polls;
  expect(retried?.token).toBe(failed?.token);
  expect((retried?.sentAt ?? 0) - (failed?.answeredAt ?? 0)).toBeGreaterThanOrEqual(2000);
  expect(await ledger(harness)).toHaveLength(1);
});

test("the retry budget ends in needs_user with the last error kept, never an endless loop", async () => {
  const harness = await startHarness();
  const { threads } = recordingThreads();
  const time = new VirtualTime();
  const polls: string[] = [];
  const url = `${harness.server.url}/agent`;
  const failing = async (input: string, init?: RequestInit) => {
    if (input.endsWith("/background/poll")) {
      polls.push(input);
      return new Response(JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "down" } }), {
        status: 503,
      });
    }
    return fetch(input, init);
  };
  const runner = new BackgroundRuns({
    namespace: "user-1",
    url,
    deps: {
      fetch: failing,
      now: time.now,
      timers: time.timers,
      random: () => 0.5,
      randomUUID: () => crypto.randomUUID(),
    },
    store: new MemoryStore(),
    threads,
    http: new AgentHttp({ url, fetch: failing, now: time.now, parseRetryAfter }),
    retry: { budget: { maxAttempts: 3 } },
  });
  runner.activate();
  try {
    const started = await runner.start({ threadId: "t-budget", text: "please deploy to prod" });
    const done = await runReaches(runner, started.runId, isFinal);
    expect(done).toMatchObject({
      verdict: "needs_user",
      rule: "retry-budget-exhausted",
      attempts: 3,
      lastError: { status: 503, code: "SERVICE_UNAVAILABLE" },
      continuationToken: started.continuationToken,
    });
    expect(polls).toHaveLength(3);
    expect(await ledger(harness)).toHaveLength(0);
  } finally {
    runner.dispose();
  }
});

test("a second namespace never sees or polls the first one's runs", async () => {
  const harness = await startHarness();
  const store = new MemoryStore();
  const { threads } = recordingThreads();
  const { runner } = makeRunner(harness, { store, threads });
  await runner.start({ threadId: "t-ns", text: "please deploy to prod" });

  const url = `${harness.server.url}/agent`;
  const time = new VirtualTime();
  const other = new BackgroundRuns({
    namespace: "user-2",
    url,
    deps: {
      fetch,
      now: time.now,
      timers: time.timers,
      random: () => 0,
      randomUUID: () => crypto.randomUUID(),
    },
    store,
    threads,
    http: new AgentHttp({ url, fetch, now: time.now, parseRetryAfter }),
  });
  try {
    expect(await other.resumeAll()).toEqual([]);
  } finally {
    other.dispose();
  }
});
