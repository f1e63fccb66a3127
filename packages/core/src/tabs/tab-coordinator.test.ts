import { expect, test, vi } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import type { OutboxEntry } from "../outbox/entry";
import { createEntry } from "../outbox/reducer";
import { type AgUiEvent, EventType } from "../protocol";
import { loadEventValidator } from "../stream/load-event-validator";
import { applyEvent } from "../thread/thread-draft";
import { emptyThreadState } from "../thread/thread-state";
import type { ChannelFactory } from "./channel";
import type { LockLike, LockManagerLike } from "./lock-manager";
import {
  createTabCoordinator,
  DropReason,
  type TabCoordinator,
  type TabCoordinatorOptions,
  UnsupportedReason,
} from "./tab-coordinator";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, type TabMessage, TabMessageType } from "./tab-message";

function entryFixture(overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    ...createEntry({
      key: "key-1",
      namespace: "alice",
      threadId: "thread-1",
      interruptId: "interrupt-1",
      runId: "run-1",
      body: '{"secret":"approve with edits"}',
      decision: { kind: "approve", editedArgs: { env: "prod" } },
      now: 1_000,
    }),
    ...overrides,
  };
}

/** A hub whose deliveries wait until the test flushes them: "not delivered" is then provable. */
function steppedHub() {
  const tasks: Array<() => void> = [];
  const hub = new InMemoryBroadcastHub({ schedule: (task) => tasks.push(task) });
  return {
    hub,
    flush: () => {
      while (tasks.length > 0) tasks.shift()?.();
    },
  };
}

interface Tab {
  readonly coordinator: TabCoordinator;
  readonly received: Array<{ message: TabMessage; from: string }>;
  readonly dropped: DropReason[];
  readonly errors: unknown[];
}

/** Every leadership change of every tab, in order: the "one leader at a time" witness. */
type LeadershipLog = Array<{ tab: string; leader: boolean; leadersNow: number }>;

function createWorld(namespaceDefault = "alice") {
  const locks = new InMemoryLockManager();
  const stepped = steppedHub();
  const tabs = new Map<string, Tab>();
  const log: LeadershipLog = [];
  const leadersNow = () => [...tabs.values()].filter((tab) => tab.coordinator.state.leader).length;

  function tab(name: string, options: Partial<TabCoordinatorOptions> = {}): Tab {
    const received: Tab["received"] = [];
    const dropped: DropReason[] = [];
    const errors: unknown[] = [];
    const coordinator = createTabCoordinator({
      namespace: namespaceDefault,
      locks: () => locks,
      openChannel: stepped.hub.openChannel,
      createTabId: () => name,
      onLeadershipChange: (leader) => log.push({ tab: name, leader, leadersNow: leadersNow() }),
      onMessage: (message, from) => received.push({ message, from }),
      onDropped: (reason) => dropped.push(reason),
      onError: (error) => errors.push(error),
      ...options,
    });
    const created = { coordinator, received, dropped, errors };
    tabs.set(name, created);
    return created;
  }

  return { locks, hub: stepped.hub, flush: stepped.flush, tab, log };
}

const leaders = (...tabs: Tab[]) => tabs.filter((tab) => tab.coordinator.state.leader).length;

test("of two tabs sharing a lock manager, exactly one leads; stopping it hands over at once", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  await a.coordinator.start();
  await b.coordinator.start();
  expect(a.coordinator.state).toMatchObject({ leader: true, supported: true, unsupportedReason: null });
  expect(b.coordinator.state).toMatchObject({ leader: false, supported: true, started: true });
  expect(world.locks.pending("agui-outbox:alice")).toBe(1);

  await a.coordinator.stop();
  // No waiting on time: the release granted the queued follower before stop() resolved.
  expect(b.coordinator.state.leader).toBe(true);
  expect(a.coordinator.state).toMatchObject({ leader: false, started: false });
  expect(world.log).toEqual([
    { tab: "a", leader: true, leadersNow: 1 },
    { tab: "a", leader: false, leadersNow: 0 },
    { tab: "b", leader: true, leadersNow: 1 },
  ]);
  await b.coordinator.stop();
  expect(world.locks.isHeld("agui-outbox:alice")).toBe(false);
});

test("three tabs: one leader at every moment, handed over in queue order", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  const c = world.tab("c");
  for (const tab of [a, b, c]) await tab.coordinator.start();
  expect(leaders(a, b, c)).toBe(1);
  expect(a.coordinator.state.leader).toBe(true);

  await a.coordinator.stop();
  expect(leaders(a, b, c)).toBe(1);
  expect(b.coordinator.state.leader).toBe(true);

  await b.coordinator.stop();
  expect(leaders(a, b, c)).toBe(1);
  expect(c.coordinator.state.leader).toBe(true);

  // A comes back: it queues behind C.
  await a.coordinator.start();
  expect(a.coordinator.state.leader).toBe(false);
  await c.coordinator.stop();
  expect(a.coordinator.state.leader).toBe(true);

  expect(world.log.map((entry) => `${entry.tab}:${entry.leader}`)).toEqual([
    "a:true",
    "a:false",
    "b:true",
    "b:false",
    "c:true",
    "c:false",
    "a:true",
  ]);
  expect(Math.max(...world.log.map((entry) => entry.leadersNow))).toBe(1);
  await a.coordinator.stop();
});

test("a follower that stops leaves the queue and never leads", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  await a.coordinator.start();
  await b.coordinator.start();
  await b.coordinator.stop();
  expect(world.locks.pending("agui-outbox:alice")).toBe(0);
  await a.coordinator.stop();
  expect(b.coordinator.state.leader).toBe(false);
  expect(world.log.map((entry) => `${entry.tab}:${entry.leader}`)).toEqual(["a:true", "a:false"]);
});

test("start() is idempotent while started and stop() of a stopped coordinator is a no-op", async () => {
  const world = createWorld();
  const a = world.tab("a");
  await Promise.all([a.coordinator.start(), a.coordinator.start()]);
  await a.coordinator.start();
  expect(world.log).toHaveLength(1);
  await a.coordinator.stop();
  await a.coordinator.stop();
  expect(world.log).toHaveLength(2);
  expect(a.coordinator.broadcast({ type: TabMessageType.hello })).toBe(false);
});

test("messages reach every other tab of the namespace, with the sender's id, and not the sender", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  const c = world.tab("c");
  for (const tab of [a, b, c]) await tab.coordinator.start();
  world.flush();
  for (const tab of [a, b, c]) tab.received.length = 0;

  const entry = entryFixture();
  const event = { type: EventType.RUN_STARTED, threadId: "thread-1", runId: "run-1" } as const;
  expect(a.coordinator.broadcast({ type: TabMessageType.entryChanged, entry })).toBe(true);
  expect(b.coordinator.broadcast({ type: TabMessageType.entryAdded, key: entry.key, entry })).toBe(true);
  expect(
    a.coordinator.broadcast({ type: TabMessageType.threadEvents, threadId: "thread-1", events: [event] }),
  ).toBe(true);
  world.flush();

  expect(a.received).toEqual([{ message: { type: "entry-added", key: "key-1", entry }, from: "b" }]);
  // a leads: it acknowledges b's entry-added to every tab.
  expect(b.received).toEqual([
    { message: { type: "entry-changed", entry }, from: "a" },
    { message: { type: "thread-events", threadId: "thread-1", events: [event] }, from: "a" },
    { message: { type: "entry-ack", key: "key-1" }, from: "a" },
  ]);
  expect(c.received.map((item) => `${item.from}:${item.message.type}`)).toEqual([
    "a:entry-changed",
    "b:entry-added",
    "a:thread-events",
    "a:entry-ack",
  ]);
  expect([...a.dropped, ...b.dropped, ...c.dropped]).toEqual([]);
  for (const tab of [a, b, c]) await tab.coordinator.stop();
});

test("a joining tab learns who leads: it says hello and the leader announces itself", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  await a.coordinator.start();
  expect(a.coordinator.state.leaderTabId).toBe("a");
  await b.coordinator.start();
  expect(b.coordinator.state.leaderTabId).toBeNull();
  world.flush();
  expect(a.received.map((item) => item.message)).toEqual([{ type: "hello" }]);
  expect(b.received.map((item) => item.message)).toEqual([{ type: "leader", tabId: "a" }]);
  expect(b.coordinator.state.leaderTabId).toBe("a");

  await a.coordinator.stop();
  world.flush();
  expect(b.coordinator.state.leaderTabId).toBe("b");
  await b.coordinator.stop();
});

test("the new leader announces itself to the followers", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  const c = world.tab("c");
  for (const tab of [a, b, c]) await tab.coordinator.start();
  world.flush();
  await a.coordinator.stop();
  world.flush();
  expect(c.coordinator.state.leaderTabId).toBe("b");
  expect(c.received.at(-1)).toEqual({ message: { type: "leader", tabId: "b" }, from: "b" });
  await b.coordinator.stop();
  await c.coordinator.stop();
});

test("malformed, foreign and own messages are dropped without a throw; the channel keeps working", async () => {
  const world = createWorld();
  const a = world.tab("a");
  await a.coordinator.start();
  const raw = world.hub.openChannel("agui-outbox:alice");
  const envelope = (message: unknown, extra: Record<string, unknown> = {}) => ({
    protocol: TAB_PROTOCOL,
    version: TAB_PROTOCOL_VERSION,
    from: "intruder",
    namespace: "alice",
    message,
    ...extra,
  });
  const entry = entryFixture();
  const { body: _body, ...entryWithoutBody } = entry;
  const malformed: unknown[] = [
    null,
    "entry-changed",
    42,
    { type: "entry-changed", entry },
    envelope({ type: "entry-changed", entry }, { protocol: "someone-else" }),
    envelope({ type: "entry-changed", entry }, { version: 2 }),
    envelope({ type: "entry-changed", entry }, { from: "" }),
    envelope({ type: "no-such-type" }),
    envelope({ type: "entry-changed", entry: entryWithoutBody }),
    envelope({ type: "entry-changed", entry: { ...entry, state: "teleported" } }),
    envelope({ type: "entry-changed", entry: { ...entry, decision: { kind: "maybe" } } }),
    envelope({ type: "entry-added", key: "key-1" }),
    envelope({ type: "entries-removed", keys: "key-1" }),
    envelope({ type: "thread-events", threadId: "thread-1", events: [{ type: "NOT_AN_EVENT" }] }),
    envelope({ type: "thread-events", threadId: "thread-1", events: [{ type: EventType.RUN_STARTED }] }),
    envelope({ type: "leader" }),
    envelope({ type: "request", request: { kind: "format-disk" } }),
  ];
  for (const data of malformed) raw.postMessage(data);
  raw.postMessage(envelope({ type: "hello" }, { namespace: "bob" }));
  raw.postMessage(envelope({ type: "entry-changed", entry: { ...entry, namespace: "bob" } }));
  raw.postMessage(envelope({ type: "hello" }, { from: "a" }));
  raw.postMessage(envelope({ type: "request", request: { kind: "retry-now", key: "key-1" } }));
  world.flush();
  // Read in the turn they arrived, up to the first thread event that waits for the schemas;
  // a throw while reading would have reached onError.
  const waitsAt = malformed.findIndex((data) => JSON.stringify(data).includes("NOT_AN_EVENT"));
  expect(a.dropped.slice(0, waitsAt)).toEqual(malformed.slice(0, waitsAt).map(() => DropReason.malformed));
  expect(a.errors).toEqual([]);

  // The two thread events are not a run's ordinary ones: they wait for the AG-UI event
  // schemas (loaded on demand), and what follows them waits behind, in order.
  await loadEventValidator();
  expect(a.dropped).toEqual([
    ...malformed.map(() => DropReason.malformed),
    DropReason.otherNamespace,
    DropReason.otherNamespace,
    DropReason.ownMessage,
  ]);
  expect(a.received).toEqual([
    { message: { type: "request", request: { kind: "retry-now", key: "key-1" } }, from: "intruder" },
  ]);
  expect(a.errors).toEqual([]);
  raw.close();
  await a.coordinator.stop();
});

test("unknown fields of a mirrored entry pass through, so a newer tab's fields are not stripped", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  await a.coordinator.start();
  await b.coordinator.start();
  world.flush();
  b.received.length = 0;
  const entry = { ...entryFixture(), backgroundToken: "token-1" };
  a.coordinator.broadcast({ type: TabMessageType.entryChanged, entry });
  world.flush();
  expect(b.received[0]?.message).toEqual({ type: "entry-changed", entry });
  await a.coordinator.stop();
  await b.coordinator.stop();
});

test("an app callback that throws is reported and does not break leadership or delivery", async () => {
  const world = createWorld();
  const a = world.tab("a", {
    onLeadershipChange: () => {
      throw new Error("app bug in leadership handler");
    },
  });
  const b = world.tab("b", {
    onMessage: () => {
      throw new Error("app bug in message handler");
    },
  });
  await a.coordinator.start();
  await b.coordinator.start();
  expect(a.coordinator.state.leader).toBe(true);
  a.coordinator.broadcast({ type: TabMessageType.hello });
  world.flush();
  expect(b.errors.map((error) => (error as Error).message)).toEqual([
    "app bug in message handler",
    "app bug in message handler",
  ]);
  await a.coordinator.stop();
  expect(b.coordinator.state.leader).toBe(true);
  expect(a.errors.map((error) => (error as Error).message)).toEqual([
    "app bug in leadership handler",
    "app bug in leadership handler",
  ]);
  await b.coordinator.stop();
});

test("namespaces are isolated: one leader each, and no message crosses", async () => {
  const world = createWorld();
  const alice1 = world.tab("alice-1", { namespace: "alice" });
  const alice2 = world.tab("alice-2", { namespace: "alice" });
  const bob1 = world.tab("bob-1", { namespace: "bob" });
  const bob2 = world.tab("bob-2", { namespace: "bob" });
  for (const tab of [alice1, alice2, bob1, bob2]) await tab.coordinator.start();
  expect(alice1.coordinator.state.leader).toBe(true);
  expect(bob1.coordinator.state.leader).toBe(true);
  expect(leaders(alice1, alice2)).toBe(1);
  expect(leaders(bob1, bob2)).toBe(1);
  world.flush();
  for (const tab of [alice1, alice2, bob1, bob2]) tab.received.length = 0;

  alice1.coordinator.broadcast({ type: TabMessageType.entryChanged, entry: entryFixture() });
  world.flush();
  expect(alice2.received).toHaveLength(1);
  expect(bob1.received).toEqual([]);
  expect(bob2.received).toEqual([]);

  await alice1.coordinator.stop();
  expect(alice2.coordinator.state.leader).toBe(true);
  expect(bob1.coordinator.state.leader).toBe(true);
  for (const tab of [alice2, bob1, bob2]) await tab.coordinator.stop();
});

test("without Web Locks every tab leads and says it is unsupported", async () => {
  const hub = new InMemoryBroadcastHub();
  const changes: string[] = [];
  const make = (name: string) =>
    createTabCoordinator({
      namespace: "alice",
      locks: () => undefined,
      openChannel: hub.openChannel,
      createTabId: () => name,
      onLeadershipChange: (leader) => changes.push(`${name}:${leader}`),
      onMessage: () => {},
    });
  const a = make("a");
  const b = make("b");
  await a.start();
  await b.start();
  expect(a.state).toMatchObject({ leader: true, supported: false, unsupportedReason: "no-web-locks" });
  expect(b.state).toMatchObject({ leader: true, supported: false, unsupportedReason: "no-web-locks" });
  await a.stop();
  await b.stop();
  expect(changes).toEqual(["a:true", "b:true", "a:false", "b:false"]);
});

test("without BroadcastChannel the tab leads alone without taking the lock, and broadcast sends nothing", async () => {
  const locks = new InMemoryLockManager();
  const noChannel: ChannelFactory = () => undefined;
  const a = createTabCoordinator({
    namespace: "alice",
    locks: () => locks,
    openChannel: noChannel,
    createTabId: () => "a",
    onLeadershipChange: () => {},
    onMessage: () => {},
  });
  await a.start();
  expect(a.state).toMatchObject({
    leader: true,
    supported: false,
    unsupportedReason: UnsupportedReason.noBroadcastChannel,
  });
  expect(locks.isHeld("agui-outbox:alice")).toBe(false);
  expect(a.broadcast({ type: TabMessageType.hello })).toBe(false);
  await a.stop();
});

test("a lock request the platform refuses degrades to leading, unsupported", async () => {
  const refusing: LockManagerLike = {
    request: () => Promise.reject(new DOMException("opaque origin", "SecurityError")),
  };
  const a = createTabCoordinator({
    namespace: "alice",
    locks: () => refusing,
    openChannel: new InMemoryBroadcastHub().openChannel,
    createTabId: () => "a",
    onLeadershipChange: () => {},
    onMessage: () => {},
  });
  await a.start();
  expect(a.state).toMatchObject({
    leader: true,
    supported: false,
    unsupportedReason: UnsupportedReason.lockRequestFailed,
  });
  await a.stop();
  expect(a.state.leader).toBe(false);
});

test("a lock taken away without stop() ends leadership first, then the tab queues again", async () => {
  // Stands in for another context using `steal: true`: the held request rejects.
  let takeAway: (reason: unknown) => void = () => {};
  const queued: Array<(lock: LockLike | null) => unknown> = [];
  const calls: string[] = [];
  const stealing: LockManagerLike = {
    request<T>(name: string, options: { ifAvailable?: boolean }, callback: (lock: LockLike | null) => T) {
      calls.push(options.ifAvailable ? "ifAvailable" : "queued");
      if (options.ifAvailable) {
        void callback({ name, mode: "exclusive" });
        return new Promise<Awaited<T>>((_resolve, reject) => {
          takeAway = reject;
        });
      }
      queued.push(callback as (lock: LockLike | null) => unknown);
      return new Promise<Awaited<T>>(() => {});
    },
  };
  const changes: boolean[] = [];
  let lost: () => void = () => {};
  const leadershipLost = new Promise<void>((resolve) => {
    lost = resolve;
  });
  const a = createTabCoordinator({
    namespace: "alice",
    locks: () => stealing,
    openChannel: new InMemoryBroadcastHub().openChannel,
    createTabId: () => "a",
    onLeadershipChange: (leader) => {
      changes.push(leader);
      if (!leader) lost();
    },
    onMessage: () => {},
  });
  await a.start();
  expect(a.state.leader).toBe(true);
  takeAway(new DOMException("stolen", "AbortError"));
  await leadershipLost;
  expect(changes).toEqual([true, false]);
  expect(a.state).toMatchObject({ leader: false, supported: true });
  expect(calls).toEqual(["ifAvailable", "queued"]);
  queued[0]?.({ name: "agui-outbox:alice", mode: "exclusive" });
  expect(changes).toEqual([true, false, true]);
  expect(a.state.leader).toBe(true);
  const stopped = a.stop();
  expect(changes).toEqual([true, false, true, false]);
  void stopped;
});

test("custom lock and channel names are used as given", async () => {
  const world = createWorld();
  const a = world.tab("a", { lockName: "lock-x", channelName: "channel-x" });
  await a.coordinator.start();
  expect(world.locks.isHeld("lock-x")).toBe(true);
  expect(world.locks.isHeld("agui-outbox:alice")).toBe(false);
  expect(world.hub.openCount("channel-x")).toBe(1);
  await a.coordinator.stop();
  expect(world.hub.openCount("channel-x")).toBe(0);
  expect(world.locks.isHeld("lock-x")).toBe(false);
});

test("the defaults read the platform at call time, so importing touches nothing", async () => {
  const { defaultLocks } = await import("./lock-manager");
  const { defaultOpenChannel } = await import("./channel");
  const original = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  const fake = new InMemoryLockManager();
  try {
    Object.defineProperty(globalThis, "navigator", { value: { locks: fake }, configurable: true });
    expect(defaultLocks()).toBe(fake);
    Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true });
    expect(defaultLocks()).toBeUndefined();
  } finally {
    if (original) Object.defineProperty(globalThis, "navigator", original);
    else Reflect.deleteProperty(globalThis, "navigator");
  }
  vi.stubGlobal("BroadcastChannel", undefined);
  try {
    expect(defaultOpenChannel("agui-outbox:defaults-test")).toBeUndefined();
  } finally {
    vi.unstubAllGlobals();
  }
  const channel = defaultOpenChannel("agui-outbox:defaults-test");
  expect(channel).toBeInstanceOf(BroadcastChannel);
  expect((channel as BroadcastChannel).name).toBe("agui-outbox:defaults-test");
  channel?.close();
});

/** Timers that fire only when the test says so. */
function manualTimers() {
  let next = 1;
  const pending = new Map<number, { ms: number; callback: () => void }>();
  return {
    timers: {
      setTimeout: (callback: () => void, ms: number) => {
        const id = next++;
        pending.set(id, { ms, callback });
        return id;
      },
      clearTimeout: (handle: unknown) => {
        pending.delete(handle as number);
      },
    },
    pending,
    /** Fires every timer due within `ms` (one round: timers they set wait for the next call). */
    fire(ms: number) {
      for (const [id, timer] of [...pending]) {
        if (timer.ms > ms) continue;
        pending.delete(id);
        timer.callback();
      }
    },
  };
}

test("a follower's announcement resolves only once the leader acknowledged it", async () => {
  const world = createWorld();
  const clock = manualTimers();
  const leader = world.tab("leader");
  const follower = world.tab("follower", { timers: clock.timers });
  await leader.coordinator.start();
  await follower.coordinator.start();
  world.flush();
  expect(follower.coordinator.state.leaderTabId).toBe("leader");

  const entry = entryFixture();
  let result: string | undefined;
  void follower.coordinator
    .announce(entry.key, { type: TabMessageType.entryAdded, key: entry.key, entry })
    .then((value) => {
      result = value;
    });
  await Promise.resolve();
  // Not delivered yet: the answer must not count as handed over.
  expect(result).toBeUndefined();
  world.flush(); // the leader hears entry-added and acknowledges
  world.flush(); // the acknowledgement reaches the follower
  await Promise.resolve();
  expect(result).toBe("acknowledged");
  expect(leader.received.map((item) => item.message.type)).toContain("entry-added");
  expect(clock.pending.size).toBe(0);
  for (const tab of [leader, follower]) await tab.coordinator.stop();
});

test("an announcement with no leader known resolves at once; a silent leader is waited for a bounded time", async () => {
  const world = createWorld();
  const clock = manualTimers();
  // The lock is held elsewhere (a tab that never speaks on the channel).
  let releaseGhost = () => {};
  void world.locks.request(
    "agui-outbox:alice",
    { mode: "exclusive" },
    () => new Promise<void>((resolve) => (releaseGhost = resolve)),
  );
  const follower = world.tab("follower", { timers: clock.timers });
  await follower.coordinator.start();
  world.flush();
  expect(follower.coordinator.state).toMatchObject({ leader: false, leaderTabId: null });
  const entry = entryFixture();
  const message = { type: TabMessageType.entryAdded, key: entry.key, entry } as const;
  expect(await follower.coordinator.announce(entry.key, message)).toBe("no-leader");

  // The ghost says it leads, then never acknowledges anything.
  world.hub.openChannel("agui-outbox:alice").postMessage({
    protocol: TAB_PROTOCOL,
    version: TAB_PROTOCOL_VERSION,
    from: "ghost",
    namespace: "alice",
    message: { type: "leader", tabId: "ghost" },
  });
  world.flush();
  expect(follower.coordinator.state.leaderTabId).toBe("ghost");
  const waiting = follower.coordinator.announce(entry.key, message);
  world.flush();
  clock.fire(1_000);
  expect(await waiting).toBe("no-ack");
  await follower.coordinator.stop();
  releaseGhost();
});

test("the leader rescans storage when a tab says hello and on its slow tick", async () => {
  const world = createWorld();
  const clock = manualTimers();
  let rescans = 0;
  const leader = world.tab("leader", {
    timers: clock.timers,
    rescanIntervalMs: 30_000,
    onRescan: () => {
      rescans += 1;
    },
  });
  await leader.coordinator.start();
  world.flush();
  expect(rescans).toBe(0);
  const joiner = world.tab("joiner");
  await joiner.coordinator.start();
  world.flush();
  expect(rescans).toBe(1);
  clock.fire(30_000);
  expect(rescans).toBe(2);
  clock.fire(30_000);
  expect(rescans).toBe(3);
  await leader.coordinator.stop();
  // A tab that no longer leads keeps no tick.
  expect(clock.pending.size).toBe(0);
  await joiner.coordinator.stop();
});

test("thread events cross the channel as one JSON text and arrive as events; a broken text is dropped", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  for (const tab of [a, b]) await tab.coordinator.start();
  const raw = world.hub.openChannel("agui-outbox:alice");
  const heard: unknown[] = [];
  raw.addEventListener("message", (event) => heard.push(event.data));
  world.flush();
  heard.length = 0;
  b.received.length = 0;

  const events = [
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Hi" },
  ] as const;
  a.coordinator.broadcast({ type: TabMessageType.threadEvents, threadId: "thread-1", events: [...events] });
  world.flush();
  // A string is cloned as one copy; an array of events, object by object.
  expect(heard).toMatchObject([{ message: { type: "thread-events", events: JSON.stringify(events) } }]);
  expect(b.received).toEqual([
    { message: { type: "thread-events", threadId: "thread-1", events }, from: "a" },
  ]);

  const base = { protocol: TAB_PROTOCOL, version: TAB_PROTOCOL_VERSION, from: "x", namespace: "alice" };
  raw.postMessage({ ...base, message: { type: "thread-events", threadId: "thread-1", events: "[{" } });
  world.flush();
  expect(b.dropped).toEqual([DropReason.malformed]);
  raw.close();
  for (const tab of [a, b]) await tab.coordinator.stop();
});

test("a batch's consecutive deltas to one message or tool call cross as one, and fold the same", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  for (const tab of [a, b]) await tab.coordinator.start();
  world.flush();
  b.received.length = 0;
  const cursor = { "x-stream": { runId: "r1", seq: 1 } };
  const events = [
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Hi", metadata: cursor },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: " there" },
    { type: EventType.TOOL_CALL_START, toolCallId: "c1", toolCallName: "deploy", parentMessageId: "m1" },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '{"a":' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: "1}" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "!" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m2", delta: "New" },
  ] as AgUiEvent[];
  a.coordinator.broadcast({ type: TabMessageType.threadEvents, threadId: "thread-1", events });
  world.flush();
  expect(b.received).toHaveLength(1);
  const mirrored = (b.received[0]?.message as { events?: AgUiEvent[] } | undefined)?.events ?? [];
  expect(mirrored).toEqual([
    events[0],
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Hi there" },
    events[3],
    { type: EventType.TOOL_CALL_ARGS, toolCallId: "c1", delta: '{"a":1}' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "!" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m2", delta: "New" },
  ]);
  const fold = (list: AgUiEvent[]) => list.reduce(applyEvent, emptyThreadState("thread-1"));
  expect(fold(mirrored)).toEqual(fold(events));
  expect(events[1]).toMatchObject({ delta: "Hi", metadata: cursor });
  for (const tab of [a, b]) await tab.coordinator.stop();
});

test("only what a thread folds crosses, without the events' metadata, and folds the same", async () => {
  const world = createWorld();
  const a = world.tab("a");
  const b = world.tab("b");
  for (const tab of [a, b]) await tab.coordinator.start();
  world.flush();
  b.received.length = 0;
  const extras = { metadata: { "x-stream": { runId: "r1", seq: 2 } }, timestamp: 5, rawEvent: { big: "…" } };
  const events = [
    { type: EventType.RUN_STARTED, threadId: "thread-1", runId: "r1", ...extras },
    { type: EventType.STEP_STARTED, stepName: "plan", ...extras },
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant", ...extras },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Hi", ...extras },
    { type: EventType.TEXT_MESSAGE_END, messageId: "m1", ...extras },
    { type: EventType.STATE_DELTA, delta: [{ op: "add", path: "/step", value: 1 }], ...extras },
    { type: EventType.CUSTOM, name: "progress", value: 1, ...extras },
    { type: EventType.TOOL_CALL_RESULT, messageId: "t1", toolCallId: "c1", content: "ok", ...extras },
    { type: EventType.STEP_FINISHED, stepName: "plan", ...extras },
  ] as AgUiEvent[];
  a.coordinator.broadcast({ type: TabMessageType.threadEvents, threadId: "thread-1", events });
  world.flush();
  const mirrored = (b.received[0]?.message as { events?: AgUiEvent[] } | undefined)?.events ?? [];
  // A mirror folds four of the nine; the rest would be cloned, parsed and checked for nothing.
  expect(mirrored).toEqual([
    { type: EventType.RUN_STARTED, threadId: "thread-1", runId: "r1" },
    { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Hi" },
    { type: EventType.TOOL_CALL_RESULT, messageId: "t1", toolCallId: "c1", content: "ok" },
  ]);
  const fold = (list: AgUiEvent[]) => list.reduce(applyEvent, emptyThreadState("thread-1"));
  expect(fold(mirrored)).toEqual(fold(events));
  expect(events[2]).toMatchObject(extras);
  for (const tab of [a, b]) await tab.coordinator.stop();
});
