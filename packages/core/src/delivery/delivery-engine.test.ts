import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { defaultDeps, type OutboxDeps } from "../client/deps";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EntryState } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import { ThreadRegistry } from "../thread/thread-registry";
import { AgentHttp } from "../transport/agent-http";
import { DeliveryEngine } from "./delivery-engine";
import { importSender, type SenderModule } from "./load-sender";

// The engine loads the sending code on `activate` (load-sender.ts): what it does
// while the load is on its way, when it fails, and once it has the code.

/** A chunk load the test settles by hand, counting the calls. */
function heldLoad() {
  const load = { calls: 0, release: (): void => {}, fail: (_error: unknown): void => {} };
  const loadSender = (): Promise<SenderModule> => {
    load.calls += 1;
    return new Promise<SenderModule>((resolve, reject) => {
      load.release = () => void importSender().then(resolve, reject);
      load.fail = reject;
    });
  };
  return { load, loadSender };
}

async function engineWithOneAnswer(loadSender: OutboxDeps["loadSender"]) {
  const store = new MemoryStore();
  const entry = makeTestEntry({ state: EntryState.queued });
  await store.put(entry);
  const requests: string[] = [];
  const deps: OutboxDeps = {
    ...defaultDeps(),
    loadSender,
    fetch: (input) => {
      requests.push(input);
      return new Promise<Response>(() => {});
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
    kindKnown: () => true,
    hydrate: async () => {},
    publish: () => {},
    onPaused: () => {},
    stallTimeoutMs: 45_000,
    maxEventBytes: 1 << 20,
    retry: {},
  });
  await engine.load();
  return { engine, entry, requests, store };
}

// The engine's timers and clock are virtual: "nothing is sent" holds over a virtual
// minute (every backoff and schedule the engine could arm in it has run), not a few ms.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const settle = () => vi.advanceTimersByTimeAsync(60_000);

test("a load that fails rejects with sender_unavailable, sends nothing and leaves the entry as stored", async () => {
  const { load, loadSender } = heldLoad();
  const { engine, entry, requests, store } = await engineWithOneAnswer(loadSender);
  const activation = engine.activate();
  load.fail(new TypeError("Failed to fetch dynamically imported module"));
  const error = await activation.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OutboxError);
  expect(error).toMatchObject({ kind: ErrorKind.senderUnavailable });
  expect((error as OutboxError).cause).toBeInstanceOf(TypeError);
  await settle();
  expect(requests).toEqual([]);
  expect(await store.get(entry.key)).toEqual(entry);
});

test("stopped while the code loads: the activation stands down, nothing is sent", async () => {
  const { load, loadSender } = heldLoad();
  const { engine, requests } = await engineWithOneAnswer(loadSender);
  const activation = engine.activate();
  engine.deactivate();
  load.release();
  await activation;
  await settle();
  expect(requests).toEqual([]);
});

test("once loaded, the answer is sent; a later activation does not load the code again", async () => {
  const { load, loadSender } = heldLoad();
  const { engine, requests } = await engineWithOneAnswer(loadSender);
  const activation = engine.activate();
  load.release();
  await activation;
  await settle();
  expect(requests).toEqual(["http://agent.test/agent"]);
  engine.deactivate();
  await engine.activate();
  expect(load.calls).toBe(1);
});
