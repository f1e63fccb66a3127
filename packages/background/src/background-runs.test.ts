import { getEventListeners } from "node:events";
import { isOutboxError, MemoryStore } from "@agui-outbox/core";
import { AgentHttp, parseRetryAfter, ThreadRegistry } from "@agui-outbox/core/internal";
import { expect, test, vi } from "vitest";
import { VirtualTime } from "../../core/test/support/virtual-time";
import { BackgroundRuns, type BackgroundRunsOptions } from "./background-runs";

// The runner against a scripted fetch: one answer per request, in order.

const URL_BASE = "https://agent.test/agent";

type Script = (path: string, body: unknown, init?: RequestInit) => Response;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function backgroundBody(
  status: string,
  token: string | null,
  events: unknown[],
  lastSeq: number,
  error: unknown = null,
) {
  return { runId: "run-1", threadId: "t1", status, continuationToken: token, events, lastSeq, error };
}

const started = (seq: number) => ({
  type: "RUN_STARTED",
  threadId: "t1",
  runId: "run-1",
  metadata: { "x-stream": { runId: "run-1", seq } },
});

function setup(script: Script, options: Partial<BackgroundRunsOptions> = {}) {
  const time = new VirtualTime();
  const requests: string[] = [];
  const fetch = async (input: string, init?: RequestInit) => {
    const path = input.slice(URL_BASE.length);
    requests.push(path);
    return script(path, init?.body === undefined ? undefined : JSON.parse(String(init.body)), init);
  };
  const store = new MemoryStore();
  const threads = new ThreadRegistry();
  const runner = new BackgroundRuns({
    namespace: "user-1",
    url: URL_BASE,
    deps: { fetch, now: time.now, timers: time.timers, random: () => 0, randomUUID: () => "run-1" },
    store,
    threads,
    http: new AgentHttp({ url: URL_BASE, fetch, now: time.now, parseRetryAfter }),
    ...options,
  });
  return { runner, store, threads, time, requests };
}

/**
 * Runs every timer due now or later, the virtual clock's included (it pumps on
 * setImmediate), until none is left: what an idle runner would do, it has done.
 */
async function runEveryTimer(): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
  try {
    await vi.runAllTimersAsync();
  } finally {
    vi.useRealTimers();
  }
}

function settledRun(runner: BackgroundRuns) {
  return new Promise<NonNullable<ReturnType<BackgroundRuns["get"]>>>((resolve) => {
    const check = () => {
      const run = runner.get("run-1");
      if (run && ["completed", "lost", "needs_user", "paused"].includes(run.verdict)) {
        unsubscribe();
        resolve(run);
      }
    };
    const unsubscribe = runner.runs.subscribe(check);
    check();
  });
}

test("a refused start rejects with the HTTP status and keeps nothing", async () => {
  const { runner, store, requests } = setup(() =>
    json(400, { error: { code: "INVALID_REQUEST", message: "no" } }),
  );
  const error = await runner
    .start({ threadId: "t1", text: "please deploy" })
    .catch((caught: unknown) => caught);
  expect(isOutboxError(error) && error.kind === "http" && error.status === 400).toBe(true);
  expect(requests).toEqual([""]);
  expect(runner.runs.getState().runs).toEqual([]);
  expect(await store.listBackgroundRuns("user-1")).toEqual([]);
});

test("a start answered with something other than a background response rejects", async () => {
  const { runner } = setup(() => new Response("data: {}\n\n", { status: 200 }));
  await expect(runner.start({ threadId: "t1", text: "hi" })).rejects.toMatchObject({ kind: "invalid_json" });
});

test("nothing is polled while inactive; activate polls the held token", async () => {
  let polls = 0;
  const { runner } = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    polls += 1;
    return json(200, backgroundBody("completed", null, [], 1));
  });
  await runner.start({ threadId: "t1", text: "hi" });
  await runEveryTimer();
  expect(polls).toBe(0);
  runner.activate();
  expect((await settledRun(runner)).verdict).toBe("completed");
  expect(polls).toBe(1);
});

test("401 pauses the run until resumeAfterAuth; then it polls the same token again", async () => {
  const tokens: unknown[] = [];
  let authorized = false;
  const { runner } = setup((path, body) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    tokens.push((body as { continuationToken: string }).continuationToken);
    if (!authorized) return json(401, { error: { code: "UNAUTHORIZED", message: "sign in" } });
    return json(200, backgroundBody("completed", null, [], 1));
  });
  runner.activate();
  await runner.start({ threadId: "t1", text: "hi" });
  const paused = await settledRun(runner);
  expect(paused).toMatchObject({ verdict: "paused", lastError: { status: 401 } });
  authorized = true;
  await runner.resumeAfterAuth();
  expect((await settledRun(runner)).verdict).toBe("completed");
  expect(tokens).toEqual(["bgt_0", "bgt_0"]);
});

test("a run that failed with a code this client does not know: needs_user, raw code kept, not retried", async () => {
  let polls = 0;
  const { runner, threads } = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    polls += 1;
    const failed = {
      type: "RUN_ERROR",
      code: "SOMETHING_NEW",
      message: "new failure",
      metadata: { "x-stream": { runId: "run-1", seq: 2 } },
    };
    return json(
      200,
      backgroundBody("failed", null, [failed], 2, { code: "SOMETHING_NEW", message: "new failure" }),
    );
  });
  runner.activate();
  await runner.start({ threadId: "t1", text: "hi" });
  const run = await settledRun(runner);
  expect(run).toMatchObject({
    verdict: "needs_user",
    status: "failed",
    lastError: { code: "SOMETHING_NEW" },
  });
  expect(polls).toBe(1);
  expect(threads.get("t1").run).toMatchObject({ name: "failed", code: "SOMETHING_NEW" });
});

test("discard refuses a run without a final verdict", async () => {
  const { runner } = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    return json(503, { error: { code: "SERVICE_UNAVAILABLE", message: "down" } });
  });
  await runner.start({ threadId: "t1", text: "hi" });
  await expect(runner.discard("run-1")).rejects.toMatchObject({ kind: "storage_failed" });
  expect(runner.get("run-1")?.verdict).toBe("polling");
});

test("dispose stops a waiting loop; the record keeps its token and schedule", async () => {
  const { runner, store, time } = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    return json(503, { error: { code: "SERVICE_UNAVAILABLE", message: "down" } }, { "retry-after": "5" });
  });
  time.hold();
  runner.activate();
  await runner.start({ threadId: "t1", text: "hi" });
  const waiting = await new Promise<NonNullable<ReturnType<BackgroundRuns["get"]>>>((resolve) => {
    const unsubscribe = runner.runs.subscribe(() => {
      const run = runner.get("run-1");
      if (run?.verdict === "retry_wait") {
        unsubscribe();
        resolve(run);
      }
    });
  });
  expect(waiting.nextPollAt).toBe(time.now() + 5_000);
  // The loop goes to sleep right after the write that published the state.
  await vi.waitFor(() => expect(time.pending).toBe(1));
  runner.dispose();
  expect(time.pending).toBe(0);
  expect((await store.listBackgroundRuns("user-1"))[0]).toMatchObject({
    continuationToken: "bgt_0",
    verdict: "retry_wait",
  });
  await expect(runner.resumeAll()).rejects.toMatchObject({ kind: "disposed" });
});

test("a run wiped from storage by another tab (sign-out) is forgotten at the next read: taking over later neither polls it nor writes it back", async () => {
  const sending = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    return json(200, backgroundBody("running", "bgt_1", [], 1));
  });
  await sending.runner.start({ threadId: "t1", text: "hi" });
  // Another tab on the same storage: it has read the run (it lists it).
  const requests: string[] = [];
  const fetch = async (input: string) => {
    requests.push(input);
    return json(200, backgroundBody("running", "bgt_1", [], 1));
  };
  const time = new VirtualTime();
  const other = new BackgroundRuns({
    namespace: "user-1",
    url: URL_BASE,
    deps: { fetch, now: time.now, timers: time.timers, random: () => 0, randomUUID: () => "other" },
    store: sending.store,
    threads: new ThreadRegistry(),
    http: new AgentHttp({ url: URL_BASE, fetch, now: time.now, parseRetryAfter }),
  });
  await other.resumeAll();
  expect(other.get("run-1")?.verdict).toBe("polling");

  // The sending tab signs out: the namespace is wiped; the other tab hears and reads again.
  await sending.store.clear("user-1");
  await other.resumeAll();
  expect(other.get("run-1")).toBeUndefined();
  expect(other.runs.getState().runs).toEqual([]);

  // The sending tab is gone; the other one takes over.
  other.activate();
  await runEveryTimer();
  expect(requests).toEqual([]);
  expect(await sending.store.listBackgroundRuns("user-1")).toEqual([]);
  other.dispose();
});

/** A run that waits for its question for `waiting` polls, then goes on; every poll's virtual time and signal. */
async function pollsOfAWaitingRun(waiting: number, total: number) {
  const polls: { at: number; signal: AbortSignal }[] = [];
  let reached!: () => void;
  const done = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const { runner, time } = setup(
    (path, _body, init) => {
      if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
      const signal = init?.signal as AbortSignal;
      // As Node's fetch (undici) does: its listener stays until the request is garbage-collected.
      signal.addEventListener("abort", () => {});
      polls.push({ at: time.now(), signal });
      if (polls.length === total) {
        time.hold();
        reached();
      }
      return json(
        200,
        backgroundBody(polls.length <= waiting ? "interrupted" : "in_progress", "bgt_1", [], 1),
      );
    },
    { retry: { backoff: { capMs: 8_000 } } },
  );
  runner.activate();
  await runner.start({ threadId: "t1", text: "deploy" });
  await done;
  runner.dispose();
  return polls;
}

test("polls of a run waiting for an answer leave no abort listener behind on the runner's signal", async () => {
  const polls = await pollsOfAWaitingRun(30, 30);
  // Each request has a signal of its own: it carries only that request's listener.
  expect(polls.map(({ signal }) => getEventListeners(signal, "abort").length)).toEqual(polls.map(() => 1));
});

test("a run waiting for an answer is polled ever less often, up to the backoff cap; once it goes on, at the interval", async () => {
  const polls = await pollsOfAWaitingRun(7, 9);
  const gaps = polls.slice(1).map((poll, index) => poll.at - (polls[index]?.at ?? 0));
  expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000, 1_000]);
});

test("a waiting run is polled at once when the thread's question is answered, not at the end of its wait", async () => {
  const polls: number[] = [];
  const asking = {
    type: "RUN_FINISHED",
    threadId: "t1",
    runId: "run-1",
    outcome: { type: "interrupt", interrupts: [{ id: "q1", reason: "tool_call" }] },
    metadata: { "x-stream": { runId: "run-1", seq: 2 } },
  };
  let third!: () => void;
  const waited = new Promise<void>((resolve) => {
    third = resolve;
  });
  const { runner, threads, time } = setup((path) => {
    if (path === "") return json(202, backgroundBody("queued", "bgt_0", [started(1)], 1));
    polls.push(time.now());
    if (polls.length === 3) {
      time.hold();
      third();
    }
    return json(200, backgroundBody("interrupted", "bgt_1", polls.length === 1 ? [asking] : [], 2));
  });
  runner.activate();
  await runner.start({ threadId: "t1", text: "deploy" });
  await waited;
  // The loop sleeps on its (held) 4 s wait.
  await vi.waitFor(() => expect(time.pending).toBe(1));
  expect(threads.get("t1").pendingInterrupts).toMatchObject([{ id: "q1" }]);
  threads.dropInterrupt("t1", "q1");
  await vi.waitFor(() => expect(polls).toHaveLength(4));
  expect(polls[3]).toBe(polls[2]);
  runner.dispose();
});
