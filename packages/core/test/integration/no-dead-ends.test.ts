import { expect, test } from "vitest";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { CAPABILITY_READS_BEFORE_FALLBACK } from "../../src/client/server-kind";
import { OutboxError } from "../../src/errors/outbox-error";
import { isFinalState } from "../../src/outbox/entry";
import { MemoryStore } from "../../src/outbox/memory-store";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import type { LockLike, LockManagerLike } from "../../src/tabs/lock-manager";
import { manualSignal } from "../../testing/manual-signal";
import { VirtualTime } from "../support/virtual-time";
import {
  askForDeployment,
  chaos,
  entryOf,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  resumes,
  settled,
  startHarness,
  until,
} from "./harness";

// Every answer ends in a server's verdict or the person's choice: offline, spent
// retries, a tool that stays unavailable or failing storage never end an entry.
// Waits run on virtual time (the loop's own timers are compressed, the clock
// stays exact); what counts is asserted at the server.

const MINUTE = 60_000;

/** Every state an entry passes through, as published. */
function statesOf(client: OutboxClient, key: () => string | undefined): string[] {
  const seen: string[] = [];
  client.outbox.subscribe((state) => {
    const entry = state.entries.find((candidate) => candidate.key === key());
    if (entry && seen.at(-1) !== entry.state) seen.push(entry.state);
  });
  return seen;
}

test("offline for 10 minutes, then online: sent once with the original key, no manual action", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const online = manualSignal(true);
  const log: RequestRecord[] = [];
  const reachServer = recordingFetch(log);
  let offline = false;
  const client = makeClient(harness, {
    retry: {},
    deps: {
      now: time.now,
      timers: time.timers,
      online,
      fetch: (input, init) =>
        offline ? Promise.reject(new TypeError("Failed to fetch")) : reachServer(input, init),
    },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-offline");
  offline = true;
  online.set(false);
  const entry = await client.answer({ threadId: "t-offline", interruptId: interrupt.id, approved: true });
  const from = time.now();
  await until(() => time.now() - from >= 10 * MINUTE, "ten virtual minutes");

  const waiting = entryOf(client, entry.key);
  expect(isFinalState(waiting.state)).toBe(false);
  expect(waiting.counters?.serverFailures).toBe(0);
  expect(resumes(log)).toHaveLength(0);

  offline = false;
  online.set(true);
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(resumes(log).map((request) => request.idempotencyKey)).toEqual([entry.key]);
  expect(await ledger(harness)).toHaveLength(1);
});

test("APPROVAL_TOOL_UNAVAILABLE ×20: never lost; stalled once the budget is spent, applied once the tool is back", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const visible = manualSignal(true);
  const log: RequestRecord[] = [];
  const client = makeClient(harness, {
    retry: {},
    deps: { now: time.now, timers: time.timers, visible, fetch: recordingFetch(log) },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-unavailable");
  await chaos(harness, [{ point: "before-claim", action: "fail", times: 20 }]);
  let key: string | undefined;
  const states = statesOf(client, () => key);
  const entry = await client.answer({ threadId: "t-unavailable", interruptId: interrupt.id, approved: true });
  key = entry.key;
  await until(() => entryOf(client, entry.key).state === "stalled", "the stall");
  const stalled = entryOf(client, entry.key);
  expect(stalled.lastError?.kind).toBe("retry_budget_exhausted");
  // 12 failures spend the budget; the thread shows the question still open, so
  // one more try (same key), then the stall.
  expect(stalled.counters?.serverFailures).toBe(13);

  // The person comes back to the tab: the same key goes again with a fresh budget.
  visible.set(false);
  visible.set(true);
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(states).not.toContain("lost");
  expect(new Set(resumes(log).map((request) => request.idempotencyKey))).toEqual(new Set([entry.key]));
  expect(resumes(log)).toHaveLength(21);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a server that keeps failing gets at most 20 requests in a fake minute (full-jitter backoff, budget, stall)", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const client = makeClient(harness, {
    retry: {},
    deps: { now: time.now, timers: time.timers, fetch: recordingFetch(log) },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-failing");
  await chaos(harness, [{ point: "before-response", action: "status", status: 503, times: 1000 }]);
  const before = log.length;
  const entry = await client.answer({ threadId: "t-failing", interruptId: interrupt.id, approved: true });
  const from = time.now();
  await until(
    () => time.now() - from >= MINUTE || entryOf(client, entry.key).state === "stalled",
    "a fake minute or the stall",
  );
  expect(log.length - before).toBeLessThanOrEqual(20);
  expect(isFinalState(entryOf(client, entry.key).state)).toBe(false);
});

/** A store whose writes fail while `failing()` holds; counts the writes tried. */
function flakyStore(
  store: OutboxStore,
  failing: () => boolean,
): { store: OutboxStore; writes: () => number } {
  let writes = 0;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "commit" && property !== "put") return method;
      return (...args: unknown[]) => {
        writes += 1;
        if (failing())
          return Promise.reject(
            new OutboxError("storage_quota", `${String(property)} failed (QuotaExceededError)`),
          );
        return method(...args);
      };
    },
  });
  return { store: proxy, writes: () => writes };
}

test("writes failing for 10 s: a few dozen tries at most, the failure on the entry and the outbox, delivered once after", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  let failUntil = 0;
  const flaky = flakyStore(new MemoryStore(), () => time.now() < failUntil);
  const client = makeClient(harness, {
    storage: flaky.store,
    retry: {},
    deps: { now: time.now, timers: time.timers, fetch: recordingFetch(log) },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-storage");
  const entry = await client.answer({ threadId: "t-storage", interruptId: interrupt.id, approved: true });
  failUntil = time.now() + 10_000;
  const writesBefore = flaky.writes();
  await until(
    () => entryOf(client, entry.key).lastError?.kind === "storage_quota",
    "the failure on the entry",
  );
  expect(client.outbox.getState().storageError?.kind).toBe("storage_quota");
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(flaky.writes() - writesBefore).toBeLessThanOrEqual(40);
  expect(resumes(log)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a storage failure while taking the lead is reported, and delivery resumes", async () => {
  const harness = await startHarness();
  const memory = new MemoryStore();
  let entryReads = 0;
  const store = new Proxy(memory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "listByNamespace") return method;
      return (...args: unknown[]) => {
        // The start reads the open entries, then the settled ones; the new
        // leader's re-read of every entry fails once.
        if (args[1] === undefined || args[1] === "all") entryReads += 1;
        if (entryReads === 1 && (args[1] === undefined || args[1] === "all"))
          return Promise.reject(new OutboxError("storage_failed", "listByNamespace failed"));
        return method(...args);
      };
    },
  });
  // Another tab holds the lock at first (a request that may not wait gets none), and
  // it comes only after the start has read storage, so the new leader reads the
  // entries again (answers other tabs wrote while no tab led).
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const lateLocks: LockManagerLike = {
    request<T>(_name: string, options: { ifAvailable?: boolean }, callback: (lock: LockLike | null) => T) {
      if (options.ifAvailable) return Promise.resolve(callback(null)) as Promise<Awaited<T>>;
      return released.then(() => callback({ name: "lock", mode: "exclusive" })) as Promise<Awaited<T>>;
    },
  };
  const quietChannel = () => ({
    postMessage() {},
    addEventListener() {},
    removeEventListener() {},
    close() {},
  });
  const client = makeClient(harness, {
    storage: store,
    deps: { locks: () => lateLocks, openChannel: quietChannel },
  });
  await client.start();
  expect(entryReads).toBe(0);
  release();
  await until(() => client.outbox.getState().storageError !== null, "the reported failure");
  expect(client.outbox.getState().storageError?.message).toContain("listByNamespace");
  await until(() => entryReads >= 2, "the leadership trying again");
  const interrupt = await askForDeployment(client, "t-lead");
  const entry = await client.answer({ threadId: "t-lead", interruptId: interrupt.id, approved: true });
  expect((await settled(client, entry.key)).state).toBe("applied");
  expect(client.connection.getState().leader).toBe(true);
});

test("capabilities failing at start on af-legacy: nothing is sent until the kind is known, then applied with its body", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const reachServer = recordingFetch(log);
  let capabilityFailures = 0;
  let knownAt = Number.POSITIVE_INFINITY;
  const client = makeClient(harness, {
    retry: {},
    deps: {
      now: time.now,
      timers: time.timers,
      fetch: (input, init) => {
        if (input.endsWith("/capabilities")) {
          if (capabilityFailures < 3) {
            capabilityFailures += 1;
            return Promise.resolve(new Response("unavailable", { status: 503 }));
          }
          knownAt = Math.min(knownAt, log.length);
        }
        return reachServer(input, init);
      },
    },
  });
  await client.start();
  expect(client.connection.getState().link.name).toBe("unreachable");
  const interrupt = await askForDeployment(client, "t-caps");
  const entry = await client.answer({ threadId: "t-caps", interruptId: interrupt.id, approved: true });
  expect(entry.body).toBe("");
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  const firstResume = log.findIndex((request) => request.idempotencyKey !== null);
  expect(firstResume).toBeGreaterThanOrEqual(knownAt);
  expect(client.connection.getState().serverKind).toBe("degraded");
  expect(JSON.parse(final.body).resume[0].payload).toMatchObject({ approved: true, accepted: true });
  expect(await ledger(harness)).toHaveLength(1);
});

/** Capabilities answering 503 forever; every other request reaches the server and is logged. */
function capabilitiesDown(log: RequestRecord[]) {
  const reachServer = recordingFetch(log);
  const reads = { count: 0, atFirstResume: -1 };
  const fetch = (input: string, init?: RequestInit) => {
    if (input.endsWith("/capabilities")) {
      reads.count += 1;
      return Promise.resolve(new Response("unavailable", { status: 503 }));
    }
    if (reads.atFirstResume < 0 && new Headers(init?.headers).has("idempotency-key"))
      reads.atFirstResume = reads.count;
    return reachServer(input, init);
  };
  return { fetch, reads };
}

test("capabilities 503 forever on af-legacy: after the bound the answer is sent once, shaped for it, and applied", async () => {
  const harness = await startHarness({ mode: "af-legacy" });
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const down = capabilitiesDown(log);
  const client = makeClient(harness, {
    retry: {},
    deps: { now: time.now, timers: time.timers, fetch: down.fetch },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-caps-down");
  const entry = await client.answer({ threadId: "t-caps-down", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  // Nothing was sent before the bound of failed reads.
  expect(down.reads.atFirstResume).toBeGreaterThanOrEqual(CAPABILITY_READS_BEFORE_FALLBACK);
  expect(resumes(log)).toHaveLength(1);
  expect(JSON.parse(final.body).resume[0].payload).toMatchObject({ approved: true, accepted: true });
  expect(await ledger(harness)).toHaveLength(1);
  const connection = client.connection.getState();
  expect(connection).toMatchObject({ serverKind: "degraded", serverKindFrom: "fallback" });
  expect(connection.link).toMatchObject({ name: "unreachable" });
  expect(connection.link.name === "unreachable" && connection.link.reason).toMatch(/could not be read/);

  // The reads go on, with backoff: a bounded number per virtual minute. Virtual
  // time runs ahead of the real-time poll (on a fast machine, tens of minutes pass
  // before it looks), so the reads are counted against the clock read with them.
  // A full-jitter backoff capped at 30 s reads once per 15 s on average; 8 a
  // minute is more than five standard deviations above that over ten minutes,
  // and an unbraked loop reads thousands.
  const before = down.reads.count;
  const later = time.now();
  await until(() => time.now() - later >= 10 * MINUTE, "ten virtual minutes");
  const reads = down.reads.count - before;
  const minutes = (time.now() - later) / MINUTE;
  expect(reads).toBeLessThanOrEqual(8 * minutes);
  expect(resumes(log)).toHaveLength(1);
  client.dispose();
});

test("capabilities 503 forever on a contract server: the fallback never runs the tool twice or claims more than it knows", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const down = capabilitiesDown(log);
  const client = makeClient(harness, {
    retry: {},
    deps: { now: time.now, timers: time.timers, fetch: down.fetch },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-caps-contract");
  // A break after the tool ran: the degraded rules must not resend blindly.
  await chaos(harness, [
    { point: "mid-stream", action: "drop", afterEvents: 3, threadId: "t-caps-contract" },
  ]);
  const entry = await client.answer({
    threadId: "t-caps-contract",
    interruptId: interrupt.id,
    approved: true,
  });
  const final = await settled(client, entry.key);
  expect(client.connection.getState()).toMatchObject({ serverKind: "degraded", serverKindFrom: "fallback" });
  const executions = await ledger(harness);
  expect(executions.length).toBeLessThanOrEqual(1);
  // Applied only with the execution behind it; every resume under the one key.
  if (final.state === "applied") expect(executions).toHaveLength(1);
  expect(["applied", "lost", "needs_user"]).toContain(final.state);
  expect(new Set(resumes(log).map((request) => request.idempotencyKey))).toEqual(new Set([entry.key]));
  // The body fits the contract's closed schema: the flag it declares, nothing more.
  expect(JSON.parse(final.body).resume[0].payload).toEqual({ approved: true });
  client.dispose();
});

test("the server switches to af-legacy under a running page: no false 'applied', and the page says it re-detects", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  expect(client.connection.getState().serverKind).toBe("contract");
  const links: string[] = [];
  client.connection.subscribe((state) => links.push(state.link.name));
  const switched = await fetch(`${harness.server.url}/__mode`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ mode: "af-legacy" }),
  });
  expect(switched.ok).toBe(true);
  const interrupt = await askForDeployment(client, "t-switch");
  const entry = await client.answer({ threadId: "t-switch", interruptId: interrupt.id, approved: true });
  // The question's schema fits only af-legacy's answers: the kind is read again
  // before the body is built, so "applied" comes with the execution behind it.
  expect(entry.body).toBe("");
  const final = await settled(client, entry.key);
  expect(links).toContain("detecting");
  expect(client.connection.getState().serverKind).toBe("degraded");
  expect(final.state).toBe("applied");
  expect(JSON.parse(final.body).resume[0].payload).toMatchObject({ accepted: true });
  expect(await ledger(harness)).toHaveLength(1);
});

for (const jump of [-60 * MINUTE, 60 * MINUTE]) {
  test(`a wall clock that jumps ${jump < 0 ? "back" : "ahead"} an hour during a Retry-After: sent after the wait, not early, not an hour late`, async () => {
    const harness = await startHarness();
    const time = new VirtualTime({ realAboveMs: 40_000 });
    let offset = 0;
    const sends: number[] = [];
    const reachServer = recordingFetch([]);
    const client = makeClient(harness, {
      retry: {},
      deps: {
        now: () => time.now() + offset,
        timers: time.timers,
        fetch: (input, init) => {
          if (new Headers(init?.headers).has("idempotency-key")) {
            sends.push(time.now());
            // Hold the loop's timers after the first send, so the clock can jump mid-wait.
            if (sends.length === 1) time.hold();
          }
          return reachServer(input, init);
        },
      },
    });
    await client.start();
    const interrupt = await askForDeployment(client, `t-clock-${jump}`);
    await chaos(harness, [{ point: "before-response", action: "status", status: 503, retryAfterMs: 5_000 }]);
    const entry = await client.answer({
      threadId: `t-clock-${jump}`,
      interruptId: interrupt.id,
      approved: true,
    });
    await until(() => entryOf(client, entry.key).state === "retry_wait", "the Retry-After wait");
    offset = jump;
    time.release();
    const final = await settled(client, entry.key);
    expect(final.state).toBe("applied");
    expect(sends).toHaveLength(2);
    const gap = (sends[1] ?? 0) - (sends[0] ?? 0);
    expect(gap).toBeGreaterThanOrEqual(5_000);
    expect(gap).toBeLessThan(MINUTE);
  });
}

test("thread reads that keep failing after RUN_STARTED back off: at most 20 in a fake minute, never final, then applied from the thread", async () => {
  const harness = await startHarness({ mode: "af-lifecycle" });
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const reachServer = recordingFetch(log);
  let readsFail = false;
  let failedReads = 0;
  let from = Number.POSITIVE_INFINITY;
  // The clock stops at the first read past the minute, so no wait runs on while the test looks.
  let minutePassed = () => {};
  const aMinuteOfReads = new Promise<void>((resolve) => {
    minutePassed = resolve;
  });
  const client = makeClient(harness, {
    retry: {},
    deps: {
      now: time.now,
      timers: time.timers,
      // Mid-range jitter: the minute holds 9 reads, fewer than the budget's 12.
      random: () => 0.5,
      // A read (anything without an idempotency key) throws synchronously, as a
      // fetch blocked by the page can: the loop must still yield and back off.
      fetch: async (input, init) => {
        if (!readsFail) return reachServer(input, init);
        if (new Headers(init?.headers).get("idempotency-key") === null) {
          failedReads += 1;
          if (time.now() - from >= MINUTE) {
            time.hold();
            minutePassed();
          }
          throw new TypeError("Failed to fetch");
        }
        // The run goes to its end on the server; the page sees RUN_STARTED, then the
        // connection ends: without the contract it must read the thread for the outcome.
        const whole = await (await reachServer(input, init)).text();
        return new Response(whole.slice(0, whole.indexOf("\n\n") + 2), {
          headers: { "content-type": "text/event-stream" },
        });
      },
    },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-reads-fail");
  readsFail = true;
  const entry = await client.answer({ threadId: "t-reads-fail", interruptId: interrupt.id, approved: true });
  from = time.now();
  await aMinuteOfReads;

  expect(failedReads).toBeGreaterThan(0);
  expect(failedReads).toBeLessThanOrEqual(20);
  const waiting = entryOf(client, entry.key);
  expect(isFinalState(waiting.state)).toBe(false);
  expect(waiting.lastError?.kind).toBe("network");

  // Reads work again: the next backed-off read finds the result, no action needed.
  readsFail = false;
  time.release();
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(new Set(resumes(log).map((request) => request.idempotencyKey))).toEqual(new Set([entry.key]));
  expect(await ledger(harness)).toHaveLength(1);
});
