import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { makeTestEntry } from "../../test/support/test-entry";
import { defaultDeps, type OutboxDeps } from "../client/deps";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import type { OutboxStore } from "../outbox/outbox-store";
import { ThreadRegistry } from "../thread/thread-registry";
import { AgentHttp } from "../transport/agent-http";
import { DeliveryEngine } from "./delivery-engine";

// What the engine decides from the entry as stored (a reload changes nothing),
// not from sets kept beside it: each request and each write is counted.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const settle = () => vi.advanceTimersByTimeAsync(60_000);

/** Counts the writes that reach storage. */
function countingStore(store: OutboxStore): { store: OutboxStore; writes: OutboxEntry[] } {
  const writes: OutboxEntry[] = [];
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === "commit") {
        return (entry: OutboxEntry) => {
          writes.push(entry);
          return method(entry);
        };
      }
      if (property === "commitAll") {
        return (entries: readonly OutboxEntry[]) => {
          writes.push(...entries);
          return method(entries);
        };
      }
      return method;
    },
  });
  return { store: counted, writes };
}

async function engineWith(
  entry: OutboxEntry,
  options: {
    kindKnown?: () => boolean;
    respond?: () => Response;
    onKindContradicted?: (reason: string) => void;
  } = {},
) {
  const memory = new MemoryStore();
  await memory.put(entry);
  const { store, writes } = countingStore(memory);
  const requests: string[] = [];
  const deps: OutboxDeps = {
    ...defaultDeps(),
    fetch: (input) => {
      requests.push(input);
      return options.respond ? Promise.resolve(options.respond()) : new Promise<Response>(() => {});
    },
  };
  const engine = new DeliveryEngine({
    namespace: entry.namespace,
    store,
    http: new AgentHttp({
      url: "http://agent.test/agent",
      fetch: deps.fetch,
      now: deps.now,
      parseRetryAfter: () => undefined,
    }),
    threads: new ThreadRegistry(() => {}),
    deps,
    serverKind: () => "contract",
    kindKnown: options.kindKnown ?? (() => true),
    ...(options.onKindContradicted ? { onKindContradicted: options.onKindContradicted } : {}),
    hydrate: async () => {},
    publish: () => {},
    onPaused: () => {},
    stallTimeoutMs: 45_000,
    maxEventBytes: 1 << 20,
    retry: {},
  });
  return { engine, requests, store: memory, writes };
}

const inFlight = (overrides: Partial<OutboxEntry>) =>
  makeTestEntry({ everSent: true, attempts: 1, expiresAt: Date.now() + 3_600_000, ...overrides });

test("a never-sent answer waits while the server kind is unknown, and goes once it is known", async () => {
  let known = false;
  const { engine, requests } = await engineWith(makeTestEntry(), { kindKnown: () => known });
  await engine.load();
  await engine.activate();
  await settle();
  expect(requests).toEqual([]);
  known = true;
  engine.kindChanged();
  await settle();
  expect(requests).toEqual(["http://agent.test/agent"]);
});

test("the kind becoming known does not send an answer already sent", async () => {
  const entry = makeTestEntry({
    state: EntryState.retryWait,
    everSent: true,
    attempts: 1,
    expiresAt: Date.now() + 3_600_000,
    updatedAt: Date.now(),
    nextAttemptAt: Date.now() + 120_000,
  });
  const { engine, requests } = await engineWith(entry);
  await engine.load();
  await engine.activate();
  engine.kindChanged();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(requests).toEqual([]);
});

test("found in flight at activation (the page that sent it died): one write, recovered and attempted, then the POST", async () => {
  for (const state of [EntryState.sending, EntryState.streaming]) {
    const entry = inFlight({ state });
    const { engine, requests, store, writes } = await engineWith(entry);
    await engine.load();
    await engine.activate();
    await settle();
    expect(requests).toEqual(["http://agent.test/agent"]);
    expect(writes).toHaveLength(1);
    expect(await store.get(entry.key)).toMatchObject({
      state: EntryState.sending,
      attempts: 2,
      body: entry.body,
    });
  }
});

test("an acknowledged stream found at activation is re-attached, never resent", async () => {
  const entry = inFlight({ state: EntryState.streaming });
  const acked = { ...entry, cursor: { ...entry.cursor, acked: true, lastSeq: 3 } };
  const { engine, requests, writes } = await engineWith(acked);
  await engine.load();
  await engine.activate();
  await settle();
  expect(requests).toEqual([`http://agent.test/agent/runs/${acked.cursor.runId}/events`]);
  expect(writes.filter((written) => written.state === EntryState.sending)).toEqual([]);
});

test("the attempt a start read wrote goes to fetch with no write of its own", async () => {
  const entry = inFlight({ state: EntryState.sending });
  const { engine, requests, writes } = await engineWith(entry);
  engine.hold([entry], entry);
  await engine.activate();
  await settle();
  expect(requests).toEqual(["http://agent.test/agent"]);
  expect(writes).toEqual([]);
});

test("a start read's attempt not handed to fetch before a stop is resent through recovery", async () => {
  const entry = inFlight({ state: EntryState.sending });
  const { engine, requests, writes } = await engineWith(entry);
  engine.hold([entry], entry);
  engine.deactivate();
  await engine.activate();
  await settle();
  expect(requests).toEqual(["http://agent.test/agent"]);
  expect(writes).toHaveLength(1);
  expect(writes[0]).toMatchObject({ state: EntryState.sending, attempts: 2 });
});

test("activated, stopped and activated again at once: the answer is sent once", async () => {
  const { engine, requests } = await engineWith(makeTestEntry());
  await engine.load();
  const first = engine.activate();
  engine.deactivate();
  const second = engine.activate();
  await Promise.all([first, second]);
  await settle();
  expect(requests).toEqual(["http://agent.test/agent"]);
});

/** A resume's stream: RUN_STARTED with `metadata`, then RUN_FINISHED. */
function finishedStream(entry: OutboxEntry, metadata?: Record<string, unknown>): Response {
  const run = { threadId: entry.threadId, runId: entry.runId };
  const frames = [
    { type: "RUN_STARTED", ...run, ...(metadata ? { metadata } : {}) },
    { type: "RUN_FINISHED", ...run, outcome: { type: "success" } },
  ].map((event, index) => `id: ${entry.runId}:${index + 1}\ndata: ${JSON.stringify(event)}\n\n`);
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream" } });
}

test("a contract server that finishes a resume it never acknowledged is read again; one that acknowledged is not", async () => {
  for (const acknowledged of [false, true]) {
    const entry = makeTestEntry();
    const ack = {
      ack: "claimed",
      interruptIds: [entry.interruptId],
      idempotencyKey: entry.key,
      runId: entry.runId,
    };
    const reasons: string[] = [];
    const { engine, store } = await engineWith(entry, {
      respond: () => finishedStream(entry, acknowledged ? { "x-resume": ack } : undefined),
      onKindContradicted: (reason) => reasons.push(reason),
    });
    await engine.load();
    await engine.activate();
    await settle();
    expect(reasons).toEqual(
      acknowledged ? [] : ["a resume finished without the recovery contract's claim acknowledgement"],
    );
    if (acknowledged) expect((await store.get(entry.key))?.state).toBe(EntryState.applied);
  }
});
