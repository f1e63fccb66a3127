import { expect, test } from "vitest";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { ErrorKind, OutboxError } from "../../src/errors/outbox-error";
import type { EntryError } from "../../src/outbox/entry";
import { MemoryStore } from "../../src/outbox/memory-store";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

// Bad input from the server ends in a typed error on the entry, and the answer is
// kept: the entry is never dropped, and once the server behaves it is applied.

const isResume = (init?: RequestInit) => new Headers(init?.headers).has("idempotency-key");

function eventStream(text: string): Response {
  return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** The first resume request gets `bad()`; everything else reaches the mock server. */
function failFirstResume(bad: () => Response): (input: string, init?: RequestInit) => Promise<Response> {
  let served = false;
  return (input, init) => {
    if (isResume(init) && !served) {
      served = true;
      return Promise.resolve(bad());
    }
    return fetch(input, init);
  };
}

/** Every (state, lastError) an entry went through, in order. */
function history(client: OutboxClient): Array<{ state: string; error: EntryError | null }> {
  const seen: Array<{ state: string; error: EntryError | null }> = [];
  client.outbox.subscribe((state) => {
    const [entry] = state.entries;
    if (!entry) return;
    const last = seen.at(-1);
    if (last?.state !== entry.state || last.error !== entry.lastError)
      seen.push({ state: entry.state, error: entry.lastError });
  });
  return seen;
}

const neverEndingStream = () =>
  new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "text/event-stream" } });

const cases: ReadonlyArray<{ name: string; kind: string; respond: () => Response }> = [
  {
    name: "malformed SSE framing",
    kind: ErrorKind.malformedStream,
    respond: () => eventStream("this is not a field\n\n"),
  },
  {
    name: "invalid JSON in a frame",
    kind: ErrorKind.invalidJson,
    respond: () => eventStream("id: r:1\ndata: {nope\n\n"),
  },
  {
    name: "an unknown event type",
    kind: ErrorKind.invalidEvent,
    respond: () => eventStream('id: r:1\ndata: {"type":"TELEPORT_STARTED"}\n\n'),
  },
  {
    name: "a 5 MB frame",
    kind: ErrorKind.malformedStream,
    respond: () => eventStream(`data: {"type":"RAW","event":"${"x".repeat(5 * 1024 * 1024)}"}\n\n`),
  },
  {
    name: "an HTML error page served with status 200",
    kind: ErrorKind.notEventStream,
    respond: () =>
      new Response("<html><body>Bad gateway</body></html>", { headers: { "content-type": "text/html" } }),
  },
  { name: "a 200 stream that never sends a byte", kind: ErrorKind.streamStalled, respond: neverEndingStream },
];

for (const { name, kind, respond } of cases) {
  test(`${name}: a typed ${kind} error on the entry, the answer kept, then applied once`, async () => {
    const harness = await startHarness();
    const client = makeClient(harness, {
      storage: new MemoryStore(),
      stallTimeoutMs: 300,
      deps: { fetch: failFirstResume(respond), random: () => 0.5 },
    });
    const states = history(client);
    await client.start();
    const interrupt = await askForDeployment(client, "t-bad");

    const entry = await client.answer({ threadId: "t-bad", interruptId: interrupt.id, approved: true });
    const final = await settled(client, entry.key);

    expect(states).toContainEqual({ state: "retry_wait", error: expect.objectContaining({ kind }) });
    expect(final.state).toBe("applied");
    expect(await ledger(harness)).toHaveLength(1);
  });
}

test("an unknown outcome code: needs you, with the raw code and message kept and the answer kept", async () => {
  const harness = await startHarness();
  const stream = [
    'id: r:1\ndata: {"type":"RUN_STARTED","threadId":"t-code","runId":"r"}\n\n',
    'id: r:2\ndata: {"type":"RUN_ERROR","message":"quota for deployments reached","code":"DEPLOY_QUOTA_REACHED"}\n\n',
  ].join("");
  const client = makeClient(harness, {
    storage: new MemoryStore(),
    deps: { fetch: failFirstResume(() => eventStream(stream)) },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-code");

  const entry = await client.answer({ threadId: "t-code", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("needs_user");
  expect(final.lastError).toMatchObject({
    code: "DEPLOY_QUOTA_REACHED",
    message: "quota for deployments reached",
  });
  expect(final.decision).toEqual({ kind: "approve" });
  expect(final.body).toBe(entry.body);
  expect(await ledger(harness)).toHaveLength(0);
});

test("IndexedDB unavailable: the client falls back to memory, says so, and still delivers", async () => {
  const harness = await startHarness();
  const client = makeClient(harness, { deps: { indexedDB: () => undefined } });
  await client.start();

  expect(client.outbox.getState()).toMatchObject({ ready: true, durable: false });
  expect(client.outbox.getState().storageError?.kind).toBe(ErrorKind.storageUnavailable);
  const interrupt = await askForDeployment(client, "t-no-idb");
  const entry = await client.answer({ threadId: "t-no-idb", interruptId: interrupt.id, approved: true });
  expect((await settled(client, entry.key)).state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(1);
});

test("storage over quota: answer() rejects with a typed error, nothing is enqueued or sent, earlier answers stay", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  let full = false;
  const quotaStore = new Proxy(storage, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      if (property !== "putIfAbsentForInterrupt") return method;
      return (...args: unknown[]) =>
        full
          ? Promise.reject(
              new OutboxError(ErrorKind.storageQuota, "putIfAbsentForInterrupt failed: QuotaExceededError"),
            )
          : method(...args);
    },
  });
  const client = makeClient(harness, { storage: quotaStore });
  await client.start();
  const first = await askForDeployment(client, "t-quota-1");
  const kept = await client.answer({ threadId: "t-quota-1", interruptId: first.id, approved: true });
  await settled(client, kept.key);

  full = true;
  const second = await askForDeployment(client, "t-quota-2");
  await expect(
    client.answer({ threadId: "t-quota-2", interruptId: second.id, approved: true }),
  ).rejects.toMatchObject({
    kind: ErrorKind.storageQuota,
  });
  expect(client.outbox.getState().entries.map((entry) => entry.key)).toEqual([kept.key]);
  expect(await storage.listByNamespace("user-1")).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("edited arguments that violate the schema: a typed error and nothing enqueued", async () => {
  const harness = await startHarness();
  const client = makeClient(harness, { storage: new MemoryStore() });
  await client.start();
  const interrupt = await askForDeployment(client, "t-schema");

  await expect(
    client.answer({
      threadId: "t-schema",
      interruptId: interrupt.id,
      approved: true,
      editedArgs: { target: "" },
    }),
  ).rejects.toMatchObject({
    kind: ErrorKind.invalidAnswer,
    violations: [{ path: "/editedArgs/target", keyword: "minLength" }],
  });
  expect(client.outbox.getState().entries).toEqual([]);
  expect(await ledger(harness)).toHaveLength(0);
});
