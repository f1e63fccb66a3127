import { IDBFactory } from "fake-indexeddb";
import { expect, test } from "vitest";
import { createStore } from "zustand/vanilla";
import { makeTestEntry } from "../../test/support/test-entry";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EntryState } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import type { ChannelLike } from "../tabs/channel";
import type { LockManagerLike } from "../tabs/lock-manager";
import type { OutboxClientOptions } from "./client-types";
import { createOutboxClient } from "./create-outbox-client";
import type { OutboxDeps, Signal } from "./deps";
import type { PluginHooks } from "./plugins";

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

function setup(
  store: OutboxClientOptions["storage"],
  deps: Partial<OutboxDeps> = {},
  held = false,
  options: Partial<OutboxClientOptions> = {},
) {
  const online = countingSignal();
  const visible = countingSignal();
  const http = recordingFetch(held);
  const client = createOutboxClient({
    url: AGENT_URL,
    namespace: "dispose",
    ...(store === undefined ? {} : { storage: store }),
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: http.fetch,
      online,
      visible,
      ...deps,
    },
    ...options,
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
  expect(harness.client.outbox.getState().ready).toBe(false);
});

test("disposed while the first capabilities read is out (no kind cached): it is aborted, its late answer ignored", async () => {
  const harness = setup(new MemoryStore(), {}, true);
  await nextTurn();
  expect(harness.requests.map((request) => request.url)).toEqual([CAPABILITIES_URL]);
  await disposeThenRelease(harness, () => harness.requests[0]?.answer());
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

/** An IndexedDB whose opens really happen but are announced only when the test says so; `announced` says when one was. */
function heldOpenFactory(gate: Promise<void>, announced: () => void): IDBFactory {
  const factory = new IDBFactory();
  const open = factory.open.bind(factory);
  factory.open = (name, version) => {
    const request = open(name, version);
    const listen = request.addEventListener.bind(request);
    request.addEventListener = (type: string, listener: EventListenerOrEventListenerObject) => {
      if (type !== "success") return listen(type, listener);
      return listen(type, (event) => {
        void gate.then(() => {
          if (typeof listener === "function") listener(event);
          else listener.handleEvent(event);
          announced();
        });
      });
    };
    return request;
  };
  return factory;
}

test("disposed while storage opens: persistence is not asked and the client never says ready", async () => {
  const opened = deferred();
  const announced = deferred();
  let persistAsked = 0;
  const storageManager = {
    persisted: async () => false,
    persist: async () => {
      persistAsked += 1;
      return true;
    },
  } as unknown as StorageManager;
  const harness = setup(undefined, {
    indexedDB: () => heldOpenFactory(opened.promise, announced.resolve),
    storageManager: () => storageManager,
  });
  await nextTurn();
  expect(harness.client.outbox.getState().ready).toBe(false);
  await disposeThenRelease(harness, opened.resolve);
  await announced.promise;
  await nextTurn();
  expect({ persistAsked, ready: harness.client.outbox.getState().ready }).toEqual({
    persistAsked: 0,
    ready: false,
  });
});

test("disposed while the open entries are read apart (a store without one-transaction read): nothing goes on", async () => {
  const store = new MemoryStore();
  const read = deferred();
  const list = store.listByNamespace.bind(store);
  Object.assign(store, { readAtStart: undefined });
  store.listByNamespace = async (namespace, which) => {
    if (which === "open") await read.promise;
    return list(namespace, which);
  };
  const harness = setup(store);
  await nextTurn();
  expect(harness.client.outbox.getState().ready).toBe(false);
  await disposeThenRelease(harness, read.resolve);
  expect(harness.client.outbox.getState().ready).toBe(false);
});

test("disposed while background runs are resumed at start: the client never says ready", async () => {
  const resumed = deferred();
  const idle = async () => {};
  const hooks: PluginHooks = {
    runs: createStore(() => ({ runs: [] })),
    resumeAll: () => resumed.promise,
    resumeAfterAuth: idle,
    activate: () => {},
    deactivate: () => {},
    drain: idle,
    reset: idle,
    dispose: () => {},
  };
  const harness = setup(new MemoryStore(), {}, false, { plugins: [{ attach: () => hooks }] });
  await nextTurn();
  expect(harness.client.outbox.getState().ready).toBe(false);
  await disposeThenRelease(harness, resumed.resolve);
  expect(harness.client.outbox.getState().ready).toBe(false);
});

test("disposed while the settled entries are read after start: they are not taken in", async () => {
  const store = new MemoryStore();
  const applied = makeTestEntry({ namespace: "dispose", state: EntryState.applied });
  await store.put(applied);
  const read = deferred();
  const list = store.listByNamespace.bind(store);
  let settledReads = 0;
  store.listByNamespace = async (namespace, which) => {
    if (which === "settled") {
      settledReads += 1;
      await read.promise;
    }
    return list(namespace, which);
  };
  const { client, outcome, online, visible, requests } = setup(store);
  // start() resolves before the settled read lands: that read is what is held.
  expect(await outcome).toBe("resolved");
  expect(settledReads).toBe(1);
  client.dispose();
  const requestsAtDispose = requests.length;
  read.resolve();
  await nextTurn();
  expect.soft(client.outbox.getState().entries.map((entry) => entry.key)).toEqual([]);
  expect.soft(requests.slice(requestsAtDispose)).toEqual([]);
  expect.soft({ online: online.listeners, visible: visible.listeners }).toEqual({ online: 0, visible: 0 });
  expect.soft(client.connection.getState().link).toEqual({ name: "stopped" });
});
