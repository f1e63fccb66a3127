import type { OutboxStore } from "@agui-outbox/core";
import { openOutboxStore } from "@agui-outbox/core";
import { AgentHttp, parseRetryAfter, ThreadRegistry } from "@agui-outbox/core/internal";
import { MetadataKey, type StreamCursor } from "@agui-outbox/core/protocol";
import { afterEach, expect } from "vitest";
import type { Harness } from "../../core/test/integration/harness";
import { VirtualTime } from "../../core/test/support/virtual-time";
import type { BackgroundRunRecord } from "../src/background-run-record";
import { BackgroundRuns, type BackgroundRunsOptions } from "../src/background-runs";

// Background runs against the real mock server over real HTTP. The runner's
// clock and timers are virtual (see VirtualTime): backoff, Retry-After and the
// poll interval cost no real time, and every time the runner reads is exact,
// so "not earlier than Retry-After" is checked without depending on timing.

const runners: BackgroundRuns[] = [];

afterEach(() => {
  for (const runner of runners.splice(0)) runner.dispose();
});

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface PollRecord {
  /** The token the request carried. */
  readonly token: string;
  /** Virtual time the request was sent. */
  readonly sentAt: number;
  status?: number;
  /** Virtual time the answer arrived. */
  answeredAt?: number;
}

export interface Setup {
  readonly runner: BackgroundRuns;
  readonly time: VirtualTime;
  readonly polls: PollRecord[];
  readonly statusReads: string[];
}

/** Every (runId, seq) the thread registry applied, in order: proof each event is applied once. */
export function recordingThreads(): { threads: ThreadRegistry; applied: StreamCursor[] } {
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

/** A runner on virtual time whose polls and status reads are recorded; `fetch` sees every request first. */
export function makeRunner(
  harness: Harness,
  options: {
    store: OutboxStore;
    threads: ThreadRegistry;
    fetch?: FetchLike;
    hydrate?: BackgroundRunsOptions["hydrate"];
    random?: () => number;
  },
): Setup {
  const time = new VirtualTime();
  const polls: PollRecord[] = [];
  const statusReads: string[] = [];
  const url = `${harness.server.url}/agent`;
  const send = options.fetch ?? fetch;
  const recording = async (input: string, init?: RequestInit): Promise<Response> => {
    if (!input.endsWith("/background/poll")) {
      if ((init?.method ?? "GET") === "GET" && /\/runs\/[^/]+$/.test(input)) statusReads.push(input);
      return send(input, init);
    }
    const { continuationToken } = JSON.parse(String(init?.body)) as { continuationToken: string };
    const record: PollRecord = { token: continuationToken, sentAt: time.now() };
    polls.push(record);
    const response = await send(input, init);
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

/** Resolves with the first run for which `predicate` holds; rejects after 10 s of real time. */
export function runReaches(
  runner: BackgroundRuns,
  runId: string | null,
  predicate: (run: BackgroundRunRecord) => boolean,
): Promise<BackgroundRunRecord> {
  const find = () =>
    runner.runs.getState().runs.find((run) => (runId === null || run.runId === runId) && predicate(run));
  return new Promise((resolve, reject) => {
    const check = () => {
      const run = find();
      if (run) {
        unsubscribe();
        clearTimeout(timer);
        resolve(run);
      }
    };
    const unsubscribe = runner.runs.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`run never reached the state: ${JSON.stringify(runner.runs.getState().runs)}`));
    }, 10_000);
    check();
  });
}

export const isFinal = (run: BackgroundRunRecord) =>
  ["completed", "lost", "needs_user"].includes(run.verdict);

/**
 * Resolves once a run of `setup` (call it before the start) reaches `predicate`,
 * with the runner's clock held from that very write: it polls no further until
 * the test calls `time.release()`.
 */
export function heldWhen(
  setup: Pick<Setup, "runner" | "time">,
  predicate: (run: BackgroundRunRecord) => boolean,
): Promise<BackgroundRunRecord> {
  return runReaches(setup.runner, null, (run) => {
    if (!predicate(run)) return false;
    setup.time.hold();
    return true;
  });
}

export const isAsking = (run: BackgroundRunRecord) => run.status === "interrupted";

/**
 * Answers the question the run's thread shows as the outbox would: a resume
 * with its own `Idempotency-Key`, read to its end (the approved tool runs in
 * it). Resolves with the resume's stream.
 */
export async function answer(
  harness: Harness,
  threads: ThreadRegistry,
  run: BackgroundRunRecord,
  approved = true,
): Promise<string> {
  const [question] = threads.get(run.threadId).pendingInterrupts;
  if (!question) throw new Error(`thread ${run.threadId} shows no question`);
  const response = await fetch(`${harness.server.url}/agent`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      "idempotency-key": `answer-${question.id}`,
    },
    body: JSON.stringify({
      threadId: run.threadId,
      runId: crypto.randomUUID(),
      state: {},
      messages: [],
      tools: [],
      context: [],
      forwardedProps: {},
      resume: [{ interruptId: question.id, status: "resolved", payload: { approved } }],
    }),
  });
  return response.text();
}

/** How often `text` occurs in a resume's stream. */
export const occurrences = (stream: string, text: string) => stream.split(text).length - 1;

/** Seqs 1..n of one run, each exactly once and in order. */
export function expectAppliedOnce(applied: readonly StreamCursor[], runId: string): void {
  const seqs = applied.filter((cursor) => cursor.runId === runId).map((cursor) => cursor.seq);
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(seqs.map((_, index) => index + 1));
}

export async function rawPoll(harness: Harness, token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${harness.server.url}/agent/background/poll`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ continuationToken: token }),
  });
  return { status: response.status, body: await response.json() };
}

/** Waits (real time, bounded) until every fault given to the mock has fired. */
export async function faultsFired(harness: Harness): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    const { faults } = (await (await fetch(`${harness.server.url}/__chaos`)).json()) as { faults: unknown[] };
    if (faults.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("a fault never fired");
}

export function texts(threads: ThreadRegistry, threadId: string): string[] {
  return threads
    .get(threadId)
    .messages.map((message) => (typeof message.content === "string" ? message.content : ""));
}

/** The run's record as stored, or undefined. */
export async function storedRun(store: OutboxStore, runId: string): Promise<unknown> {
  return (await store.listBackgroundRuns("user-1")).find(
    (record) => (record as { runId?: unknown }).runId === runId,
  );
}

/** A page's connection to the test's IndexedDB (fake-indexeddb, shared by every page of the test). */
export async function openPageStore(harness: Harness): Promise<OutboxStore> {
  const opened = await openOutboxStore({ indexedDB: harness.indexedDB, dbName: "background-test" });
  expect(opened.durable).toBe(true);
  return opened.store;
}
