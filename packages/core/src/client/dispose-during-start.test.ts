import { expect, test } from "vitest";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { MemoryStore } from "../outbox/memory-store";
import type { ChannelLike } from "../tabs/channel";
import type { LockManagerLike } from "../tabs/lock-manager";
import { createOutboxClient } from "./create-outbox-client";
import type { OutboxDeps, Signal } from "./deps";

/*
 * `dispose()` at each await of `start()`: the step start waits on is held by
 * hand, the client disposed, and then the step let go. Whatever start was
 * doing, it ends there: start rejects as disposed, nothing is asked of the
 * server after the dispose, no listener is left, and the link says `stopped`.
 */

function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** An online/visible source that counts who listens. */
function countingSignal(): Signal & { readonly listeners: number } {
  const listeners = new Set<(value: boolean) => void>();
  return {
    get: () => true,
    subscribe(listener) {
      const own = (value: boolean) => listener(value);
      listeners.add(own);
      return () => listeners.delete(own);
    },
    get listeners() {
      return listeners.size;
    },
  };
}

interface Request {
  readonly url: string;
  readonly signal: AbortSignal | undefined;
  readonly answer: () => void;
}

// A stand-in whose body reads in a microtask (a real Response's takes turns of the event loop).
const capabilities = () => ({ ok: true, status: 200, json: async () => ({}) }) as unknown as Response;

/** Records every request; a held one is answered only when the test says so, even once aborted. */
function recordingFetch(held: boolean) {
  const requests: Request[] = [];
  const fetch: OutboxDeps["fetch"] = (url, init) => {
    const answered = deferred<Response>();
    requests.push({ url, signal: init?.signal ?? undefined, answer: () => answered.resolve(capabilities()) });
    if (!held) answered.resolve(capabilities());
    return answered.promise;
  };
  return { fetch, requests };
}

const AGENT_URL = "http://127.0.0.1:9/agent";
const CAPABILITIES_URL = `${AGENT_URL}/capabilities`;

function setup(store: MemoryStore, deps: Partial<OutboxDeps> = {}, held = false) {
  const online = countingSignal();
  const visible = countingSignal();
  const http = recordingFetch(held);
  const client = createOutboxClient({
    url: AGENT_URL,
    namespace: "dispose",
    storage: store,
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: http.fetch,
      online,
      visible,
      ...deps,
    },
  });
  const outcome = client.start().then(
    () => "resolved",
    (error: unknown) => error,
  );
  return { client, outcome, online, visible, requests: http.requests };
}

/** The client's steps after a let-go step are microtasks (a memory store, a fake fetch): one turn runs them all. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Disposes while `start()` is held at one step, lets that step go, and checks that nothing went on. */
async function disposeThenRelease(harness: ReturnType<typeof setup>, release: () => void): Promise<void> {
  const { client, outcome, online, visible, requests } = harness;
  client.dispose();
  const requestsAtDispose = requests.length;
  const settled = await Promise.race([outcome, nextTurn().then(() => "still pending")]);
  release();
  await nextTurn();
  expect.soft(settled).toBeInstanceOf(OutboxError);
  expect.soft((settled as OutboxError).kind).toBe(ErrorKind.disposed);
  expect.soft(requests.map((request) => request.url).slice(requestsAtDispose)).toEqual([]);
  expect.soft(requests.filter((request) => !request.signal?.aborted).length).toBe(0);
  expect.soft({ online: online.listeners, visible: visible.listeners }).toEqual({ online: 0, visible: 0 });
  expect.soft(client.connection.getState().link).toEqual({ name: "stopped" });
  await expect(client.start()).rejects.toMatchObject({ kind: ErrorKind.disposed });
}

test("disposed while waiting for this tab's first role: start ends there, not when the lock answers", async () => {
  const grant = deferred();
  const locks: LockManagerLike = {
    request: async (_name, _options, callback) => {
      await grant.promise;
      return callback(null) as never;
    },
  };
  const channel: ChannelLike = {
    postMessage: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    close: () => {},
  };
  const harness = setup(new MemoryStore(), { locks: () => locks, openChannel: () => channel });
  await nextTurn();
  await disposeThenRelease(harness, grant.resolve);
});

test("disposed while storage is read at start: nothing is asked once the read lands", async () => {
  const store = new MemoryStore();
  const read = deferred();
  const readAtStart = store.readAtStart.bind(store);
  store.readAtStart = async (request) => {
    await read.promise;
    return readAtStart(request);
  };
  const harness = setup(store);
  await nextTurn();
  await disposeThenRelease(harness, read.resolve);
});

test("disposed while the first capabilities read is out (no kind cached): it is aborted, its late answer ignored", async () => {
  const harness = setup(new MemoryStore(), {}, true);
  await nextTurn();
  expect(harness.requests.map((request) => request.url)).toEqual([CAPABILITIES_URL]);
  await disposeThenRelease(harness, () => harness.requests[0]?.answer());
});

test("disposed while the sending tab activates (kind cached): capabilities are not asked afterwards", async () => {
  const store = new MemoryStore();
  await store.putMeta("dispose", "server-kind", "contract");
  const sender = deferred();
  const module = await import("../delivery/sender");
  const loadSender = async () => {
    await sender.promise;
    return module;
  };
  const harness = setup(store, { loadSender });
  await nextTurn();
  expect(harness.requests).toEqual([]);
  await disposeThenRelease(harness, sender.resolve);
});

test("disposed while capabilities refresh after the resend (kind cached): it is aborted, its late answer ignored", async () => {
  const store = new MemoryStore();
  await store.putMeta("dispose", "server-kind", "contract");
  const harness = setup(store, {}, true);
  await nextTurn();
  expect(harness.requests.map((request) => request.url)).toEqual([CAPABILITIES_URL]);
  expect(harness.online.listeners).toBe(1);
  await disposeThenRelease(harness, () => harness.requests[0]?.answer());
});
