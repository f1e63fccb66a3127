import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer } from "@agui-outbox/mock-server";
import { afterEach, expect, test } from "vitest";
import type { BackgroundRunRecord } from "../../src/background/background-run-record";
import { BackgroundRuns, type BackgroundRunsOptions } from "../../src/background/background-runs";
import { VirtualTime } from "../../src/background/virtual-time.test-util";
import { MemoryStore } from "../../src/outbox/memory-store";
import { openOutboxStore } from "../../src/outbox/open-store";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import { MetadataKey, type StreamCursor } from "../../src/protocol";
import { parseRetryAfter } from "../../src/retry/retry-after";
import { ThreadRegistry } from "../../src/thread/thread-registry";
import { AgentHttp } from "../../src/transport/agent-http";
import { chaos, type Harness, ledger, startHarness } from "./harness";

// Background runs against the real mock server over real HTTP. The runner's
// clock and timers are virtual (see VirtualTime): backoff, Retry-After and the
// poll interval cost no real time, and every time the runner reads is exact,
// so "not earlier than Retry-After" is checked without depending on timing.

const runners: BackgroundRuns[] = [];

afterEach(() => {
  for (const runner of runners.splice(0)) runner.dispose();
});

interface PollRecord {
  /** The token the request carried. */
  readonly token: string;
  /** Virtual time the request was sent. */
  readonly sentAt: number;
  status?: number;
  /** Virtual time the answer arrived. */
  answeredAt?: number;
}

interface Setup {
  readonly runner: BackgroundRuns;
  readonly time: VirtualTime;
  readonly polls: PollRecord[];
  readonly statusReads: string[];
}

/** Every (runId, seq) the thread registry applied, in order: proof each event is applied once. */
function recordingThreads(): { threads: ThreadRegistry; applied: StreamCursor[] } {
  const applied: StreamCursor[] = [];
  const threads = new ThreadRegistry((_threadId, events) => {
    for (const event of events) {
      const cursor = (event.metadata as Record<string, unknown> | undefined)?.[MetadataKey.stream] as
        | StreamCursor
        | undefined;
      if (cursor) applied.push({ runId: cursor.runId, seq: cursor.seq });
    }
  });
  return { threads, applied };
}

function makeRunner(
  harness: Harness,
  options: {
    store: OutboxStore;
    threads: ThreadRegistry;
    time?: VirtualTime;
    url?: string;
    hydrate?: BackgroundRunsOptions["hydrate"];
    random?: () => number;
  },
): Setup {
  const time = options.time ?? new VirtualTime();
  const polls: PollRecord[] = [];
  const statusReads: string[] = [];
  const url = options.url ?? `${harness.server.url}/agent`;
  const recording = async (input: string, init?: RequestInit): Promise<Response> => {
    if (!input.endsWith("/background/poll")) {
      if ((init?.method ?? "GET") === "GET" && /\/runs\/[^/]+$/.test(input)) statusReads.push(input);
      return fetch(input, init);
    }
    const { continuationToken } = JSON.parse(String(init?.body)) as { continuationToken: string };
    const record: PollRecord = { token: continuationToken, sentAt: time.now() };
    polls.push(record);
    const response = await fetch(input, init);
    record.status = response.status;
    record.answeredAt = time.now();
    return response;
  };
  const runner = new BackgroundRuns({
    namespace: "user-1",
    url,
    deps: {
      fetch: recording,
      now: time.now,
      timers: time.timers,
      // No jitter: any wait the runner makes comes from Retry-After or the poll interval.
      random: options.random ?? (() => 0),
      randomUUID: () => crypto.randomUUID(),
    },
    store: options.store,
    threads: options.threads,
    http: new AgentHttp({ url, fetch: recording, now: time.now, parseRetryAfter }),
    retry: { backoff: { baseMs: 100, capMs: 1_000 } },
    pollIntervalMs: 1_000,
    ...(options.hydrate ? { hydrate: options.hydrate } : {}),
  });
  runners.push(runner);
  return { runner, time, polls, statusReads };
}

/** Resolves with the run once `predicate` holds for it; rejects after 10 s of real time. */
function runReaches(
  runner: BackgroundRuns,
  runId: string,
  predicate: (run: BackgroundRunRecord) => boolean,
): Promise<BackgroundRunRecord> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const run = runner.runs.getState().runs.find((candidate) => candidate.runId === runId);
      if (run && predicate(run)) {
        unsubscribe();
        clearTimeout(timer);
        resolve(run);
      }
    };
    const unsubscribe = runner.runs.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      const run = runner.runs.getState().runs.find((candidate) => candidate.runId === runId);
      reject(new Error(`run never reached the state: ${JSON.stringify(run)}`));
    }, 10_000);
    check();
  });
}

const isFinal = (run: BackgroundRunRecord) => ["completed", "lost", "needs_user"].includes(run.verdict);

/** Seqs 1..n of one run, each exactly once and in order. */
function expectAppliedOnce(applied: readonly StreamCursor[], runId: string): void {
  const seqs = applied.filter((cursor) => cursor.runId === runId).map((cursor) => cursor.seq);
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(seqs.map((_, index) => index + 1));
}

async function rawPoll(harness: Harness, token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${harness.server.url}/agent/background/poll`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ continuationToken: token }),
  });
  return { status: response.status, body: await response.json() };
}

/** Waits (real time, bounded) until the ledger has `count` executions. */
async function ledgerReaches(harness: Harness, count: number): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if ((await ledger(harness)).length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the ledger never reached ${count}`);
}

function toolMessages(threads: ThreadRegistry, threadId: string) {
  return threads.get(threadId).messages.filter((message) => message.role === "tool");
}

function texts(threads: ThreadRegistry, threadId: string): string[] {
  return threads
    .get(threadId)
    .messages.map((message) => (typeof message.content === "string" ? message.content : ""));
}

test("start → polls → completed: the tool ran once and the thread shows its result", async () => {
  const harness = await startHarness();
  const store = new MemoryStore();
  const { threads, applied } = recordingThreads();
  const { runner, polls } = makeRunner(harness, { store, threads });
  await runner.resumeAll();
  runner.activate();

  const started = await runner.start({ threadId: "t-bg", text: "please deploy to prod" });
  expect(started.verdict).toBe("polling");
  expect(started.continuationToken).toMatch(/^bgt_/);
  // The record is durable before the first poll.
  expect(await storedRun(store, started.runId)).toMatchObject({
    runId: started.runId,
    continuationToken: started.continuationToken,
  });

  const done = await runReaches(runner, started.runId, isFinal);
  expect(done).toMatchObject({ verdict: "completed", status: "completed", continuationToken: null });
  expect(polls[0]?.token).toBe(started.continuationToken);
  expect(polls).toHaveLength(2);
  expect(await ledger(harness)).toHaveLength(1);
  expect(toolMessages(threads, "t-bg")).toHaveLength(1);
  expect(texts(threads, "t-bg")).toContain("Deployed to prod.");
  expect(threads.get("t-bg").run.name).toBe("finished");
  expectAppliedOnce(applied, started.runId);
  expect(done.lastSeq).toBe(applied.at(-1)?.seq);
  expect(await storedRun(store, started.runId)).toEqual(done);
});

/** The run's record as stored, or undefined. */
async function storedRun(store: OutboxStore, runId: string): Promise<unknown> {
  return (await store.listBackgroundRuns("user-1")).find(
    (record) => (record as { runId?: unknown }).runId === runId,
  );
}

/** A page's connection to the test's IndexedDB (fake-indexeddb, shared by every page of the test). */
async function openPageStore(harness: Harness): Promise<OutboxStore> {
  const opened = await openOutboxStore({ indexedDB: harness.indexedDB, dbName: "background-test" });
  expect(opened.durable).toBe(true);
  return opened.store;
}

test("a reload while the run goes on: the next runner polls with the persisted token, nothing repeats", async () => {
  const harness = await startHarness();
  const store = await openPageStore(harness);
  const { threads, applied } = recordingThreads();
  const first = makeRunner(harness, { store, threads });
  // Hold the first runner's clock: after its first poll it waits for the interval and never polls again.
  first.time.hold();
  first.runner.activate();
  const started = await first.runner.start({ threadId: "t-reload", text: "please deploy to prod" });
  const afterFirstPoll = await runReaches(first.runner, started.runId, (run) => run.status === "in_progress");
  first.runner.dispose();
  expect(first.polls).toHaveLength(1);
  expect(afterFirstPoll.continuationToken).not.toBe(started.continuationToken);
  expect(await ledger(harness)).toHaveLength(1);
  store.close();

  // The next page: a new connection to the same database, a new runner.
  const nextStore = await openPageStore(harness);
  const persisted = (await storedRun(nextStore, started.runId)) as BackgroundRunRecord;
  expect(persisted.continuationToken).toBe(afterFirstPoll.continuationToken);
  expect(persisted.lastSeq).toBe(afterFirstPoll.lastSeq);
  const next = makeRunner(harness, { store: nextStore, threads });
  const resumed = await next.runner.resumeAll();
  expect(resumed.map((run) => run.runId)).toEqual([started.runId]);
  next.runner.activate();
  const done = await runReaches(next.runner, started.runId, isFinal);

  expect(done.verdict).toBe("completed");
  expect(next.polls.map((poll) => poll.token)).toEqual([persisted.continuationToken]);
  expect(await ledger(harness)).toHaveLength(1);
  expectAppliedOnce(applied, started.runId);
  expect(toolMessages(threads, "t-reload")).toHaveLength(1);
  expect(texts(threads, "t-reload").filter((text) => text === "Deployed to prod.")).toHaveLength(1);
  expect(await storedRun(nextStore, started.runId)).toEqual(done);
  nextStore.close();
});

test("submission answered 429: the same token is polled again no earlier than Retry-After, the tool runs once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "background-submit", action: "status", status: 429, retryAfterMs: 1000 }]);
  const store = new MemoryStore();
  const { threads, applied } = recordingThreads();
  const { runner, polls } = makeRunner(harness, { store, threads });
  runner.activate();
  const started = await runner.start({ threadId: "t-429", text: "please deploy to prod" });
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done.verdict).toBe("completed");
  // poll → tool → submission 429 → re-poll (same token: resubmits the stored result) → completed
  expect(polls.map((poll) => poll.status)).toEqual([429, 200, 200]);
  const [refused, repoll, last] = polls;
  expect(repoll?.token).toBe(refused?.token);
  expect(repoll?.token).toBe(started.continuationToken);
  expect(last?.token).not.toBe(refused?.token);
  expect((repoll?.sentAt ?? 0) - (refused?.answeredAt ?? 0)).toBeGreaterThanOrEqual(1000);
  expect(await ledger(harness)).toHaveLength(1);
  expect(toolMessages(threads, "t-429")).toHaveLength(1);
  expectAppliedOnce(applied, started.runId);
});

test("submission refused for good: lost, the record kept with the raw code, the tool ran once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "background-submit", action: "fail" }]);
  const store = new MemoryStore();
  const { threads } = recordingThreads();
  const { runner, polls } = makeRunner(harness, { store, threads });
  runner.activate();
  const started = await runner.start({ threadId: "t-rejected", text: "please deploy to prod" });
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done).toMatchObject({
    verdict: "lost",
    status: "failed",
    rule: "background-delivery-rejected",
    lastError: { code: "BACKGROUND_TOOL_DELIVERY_REJECTED" },
  });
  expect(done.verdictReason).toMatch(/ran/);
  expect(polls).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
  expect(threads.get("t-rejected").run).toMatchObject({
    name: "failed",
    code: "BACKGROUND_TOOL_DELIVERY_REJECTED",
  });
  expect(await storedRun(store, started.runId)).toEqual(done);
  await expect(runner.discard(started.runId)).resolves.toBeUndefined();
  expect(await storedRun(store, started.runId)).toBeUndefined();
});

test("a tool cut off mid-execution: lost (indeterminate), never re-run", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);
  const { threads } = recordingThreads();
  const { runner } = makeRunner(harness, { store: new MemoryStore(), threads });
  runner.activate();
  const started = await runner.start({ threadId: "t-indeterminate", text: "please deploy to prod" });
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done).toMatchObject({
    verdict: "lost",
    rule: "indeterminate",
    lastError: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" },
  });
  expect(done.verdictReason).toMatch(/may or may not/);
  expect(await ledger(harness)).toHaveLength(1);
  // Asking again changes nothing: a lost run is final and is not polled.
  await runner.retryNow(started.runId);
  expect(runner.get(started.runId)?.verdict).toBe("lost");
  expect(await ledger(harness)).toHaveLength(1);
});

test("a server crash mid-tool, restart on its file store: the held token reports indeterminate, ledger stays 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "outbox-bg-crash-"));
  const serverStore = { kind: "file", path: join(dir, "state.json") } as const;
  let serverNow = Date.now();
  const clock = { now: () => serverNow };
  const harness = await startHarness({ store: serverStore, clock, claimLeaseMs: 1_000 });
  const { threads } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, time, polls } = setup;
  // Held: the failed poll waits in retry_wait until the server is back.
  time.hold();
  runner.activate();
  await chaos(harness, [{ point: "mid-tool", action: "crash" }]);
  const started = await runner.start({ threadId: "t-crash", text: "please deploy to prod" });
  await harness.server.crashed;
  const waiting = await runReaches(runner, started.runId, (run) => run.verdict === "retry_wait");
  expect(waiting.lastError?.kind).toBe("network");
  expect(waiting.continuationToken).toBe(started.continuationToken);

  const restarted = await startMockServer({
    port: harness.server.port,
    store: serverStore,
    clock,
    claimLeaseMs: 1_000,
    toolDurationMs: 5,
  });
  try {
    // The dead poll's lease lapses on the server's clock.
    serverNow += 1_001;
    time.release();
    const done = await runReaches(runner, started.runId, isFinal);
    expect(done).toMatchObject({
      verdict: "lost",
      lastError: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" },
    });
    expect(new Set(polls.map((poll) => poll.token))).toEqual(new Set([started.continuationToken]));
    const executions = (await (await fetch(`${restarted.url}/__ledger`)).json()) as { executions: unknown[] };
    expect(executions.executions).toHaveLength(1);
  } finally {
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a concurrent poll of the same token: IN_PROGRESS is retried, then the run completes once", async () => {
  const harness = await startHarness();
  const { threads, applied } = recordingThreads();
  // Jitter on: the retry after IN_PROGRESS waits on a (held) timer instead of going at once.
  const { runner, time, polls } = makeRunner(harness, {
    store: new MemoryStore(),
    threads,
    random: () => 0.5,
  });
  const started = await runner.start({ threadId: "t-concurrent", text: "please deploy to prod" });
  const token = started.continuationToken ?? "";

  // Another poller holds the token: its tool is slow.
  await chaos(harness, [{ point: "mid-tool", action: "delay", delayMs: 400 }]);
  const competing = rawPoll(harness, token);
  await ledgerReaches(harness, 1);

  time.hold();
  runner.activate();
  const waiting = await runReaches(runner, started.runId, (run) => run.verdict === "retry_wait");
  expect(waiting).toMatchObject({
    rule: "background-poll-in-progress",
    continuationToken: token,
    lastError: { code: "BACKGROUND_POLL_IN_PROGRESS" },
  });
  expect((await competing).status).toBe(200);

  time.release();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(polls[0]).toMatchObject({ token, status: 409 });
  expect(await ledger(harness)).toHaveLength(1);
  // The events the other poller received were filled in from the run's log.
  expect(toolMessages(threads, "t-concurrent")).toHaveLength(1);
  expect(texts(threads, "t-concurrent")).toContain("Deployed to prod.");
  expectAppliedOnce(applied, started.runId);
});

test("a stale token: the run status names the current one, polling goes on with it", async () => {
  const harness = await startHarness();
  const { threads, applied } = recordingThreads();
  const { runner, polls, statusReads } = makeRunner(harness, { store: new MemoryStore(), threads });
  const started = await runner.start({ threadId: "t-stale", text: "please deploy to prod" });
  // Someone else advanced the run with the token this runner holds.
  const advanced = await rawPoll(harness, started.continuationToken ?? "");
  const current = (advanced.body as { continuationToken: string }).continuationToken;
  expect(advanced.status).toBe(200);

  runner.activate();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(polls.map((poll) => [poll.token, poll.status])).toEqual([
    [started.continuationToken, 409],
    [current, 200],
  ]);
  expect(statusReads).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
  expect(toolMessages(threads, "t-stale")).toHaveLength(1);
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
  const { runner, polls } = makeRunner(harness, { store: new MemoryStore(), threads });
  // Not active: start records the run but nothing polls.
  const started = await runner.start({ threadId: "t-503", text: "please deploy to prod" });
  expect(polls).toHaveLength(0);
  await chaos(harness, [{ point: "before-response", action: "status", status: 503, retryAfterMs: 2000 }]);
  runner.activate();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  const [failed, retried] = polls;
  expect(failed?.status).toBe(503);
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
  runners.push(runner);
  runner.activate();
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
  runners.push(other);
  expect(await other.resumeAll()).toEqual([]);
});

/** Every start request a fetch saw: its Idempotency-Key and exact body. */
interface StartRecord {
  readonly key: string | null;
  readonly body: string;
}

function recordingStarts(onStart?: (response: Response) => Promise<Response>): {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  starts: StartRecord[];
} {
  const starts: StartRecord[] = [];
  return {
    starts,
    fetch: async (input, init) => {
      const isStart = input.endsWith("/agent") && init?.method === "POST";
      if (isStart) {
        const headers = new Headers(init?.headers);
        starts.push({ key: headers.get("idempotency-key"), body: String(init?.body) });
      }
      const response = await fetch(input, init);
      return isStart && onStart ? onStart(response) : response;
    },
  };
}

function runnerWithFetch(
  harness: Harness,
  store: OutboxStore,
  threads: ThreadRegistry,
  fetchLike: (input: string, init?: RequestInit) => Promise<Response>,
): { runner: BackgroundRuns; time: VirtualTime } {
  const time = new VirtualTime();
  const url = `${harness.server.url}/agent`;
  const runner = new BackgroundRuns({
    namespace: "user-1",
    url,
    deps: {
      fetch: fetchLike,
      now: time.now,
      timers: time.timers,
      random: () => 0,
      randomUUID: () => crypto.randomUUID(),
    },
    store,
    threads,
    http: new AgentHttp({ url, fetch: fetchLike, now: time.now, parseRetryAfter }),
    retry: { backoff: { baseMs: 100, capMs: 1_000 } },
    pollIntervalMs: 1_000,
  });
  runners.push(runner);
  return { runner, time };
}

test("the run is written ahead: a page that dies after sending the start leaves a record the next page finishes, with the same key, one run", async () => {
  const harness = await startHarness();
  const store = await openPageStore(harness);
  const { threads } = recordingThreads();
  // The server starts the run, but the page is gone before the answer arrives.
  const first = recordingStarts(() => new Promise<Response>(() => {}));
  const page1 = runnerWithFetch(harness, store, threads, first.fetch);
  page1.runner.activate();
  void page1.runner.start({ threadId: "t-ahead", text: "please deploy to prod" }).catch(() => {});
  for (let tries = 0; tries < 500 && first.starts.length === 0; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(first.starts).toHaveLength(1);
  expect(first.starts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  const written = (await store.listBackgroundRuns("user-1")) as BackgroundRunRecord[];
  expect(written).toMatchObject([{ verdict: "starting", idempotencyKey: first.starts[0]?.key }]);
  page1.runner.dispose();
  store.close();

  const nextStore = await openPageStore(harness);
  const second = recordingStarts();
  const page2 = runnerWithFetch(harness, nextStore, new ThreadRegistry(), second.fetch);
  const [resumed] = await page2.runner.resumeAll();
  if (resumed === undefined) throw new Error("the written-ahead run was not found");
  page2.runner.activate();
  const done = await runReaches(page2.runner, resumed.runId, isFinal);

  expect(done.verdict).toBe("completed");
  // The retry is the same start: same key, byte-identical body.
  expect(second.starts).toEqual([first.starts[0]]);
  expect(await ledger(harness)).toHaveLength(1);
  const status = (await (await fetch(`${harness.server.url}/agent/runs/${resumed.runId}`)).json()) as {
    status: string;
  };
  expect(status.status).toBe("finished");
  nextStore.close();
});

test("a start answered 503 stays written and is sent again with the same key and bytes; the run completes once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "before-response", action: "status", status: 503 }]);
  const store = new MemoryStore();
  const starts = recordingStarts();
  const { runner } = runnerWithFetch(harness, store, new ThreadRegistry(), starts.fetch);
  runner.activate();
  const started = await runner.start({ threadId: "t-start-503", text: "please deploy to prod" });
  expect(started.verdict).toBe("starting");
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(starts.starts).toHaveLength(2);
  expect(starts.starts[1]).toEqual(starts.starts[0]);
  expect(await ledger(harness)).toHaveLength(1);
  expect(done.startBody).toBeNull();
});

test("two tabs starting background runs at the same moment keep both: each is polled to completion", async () => {
  const harness = await startHarness();
  const [storeA, storeB] = await Promise.all([openPageStore(harness), openPageStore(harness)]);
  const tabA = makeRunner(harness, { store: storeA, threads: new ThreadRegistry() });
  const tabB = makeRunner(harness, { store: storeB, threads: new ThreadRegistry() });
  const [a, b] = await Promise.all([
    tabA.runner.start({ threadId: "t-tab-a", text: "please deploy to prod" }),
    tabB.runner.start({ threadId: "t-tab-b", text: "please deploy to staging" }),
  ]);
  storeA.close();
  storeB.close();

  // The tab that polls (here a third page) finds both.
  const leaderStore = await openPageStore(harness);
  const leader = makeRunner(harness, { store: leaderStore, threads: new ThreadRegistry() });
  const resumed = await leader.runner.resumeAll();
  expect(resumed.map((run) => run.runId).sort()).toEqual([a.runId, b.runId].sort());
  leader.runner.activate();
  await Promise.all([
    runReaches(leader.runner, a.runId, isFinal),
    runReaches(leader.runner, b.runId, isFinal),
  ]);
  expect(await ledger(harness)).toHaveLength(2);
  leaderStore.close();
});
