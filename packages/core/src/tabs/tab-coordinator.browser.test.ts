import { expect, test } from "vitest";
import { EventType } from "../protocol";
import { defaultOpenChannel } from "./channel";
import { defaultLocks } from "./lock-manager";
import { createTabCoordinator, type TabCoordinator } from "./tab-coordinator";
import { type TabMessage, TabMessageType } from "./tab-message";

// Real `navigator.locks` and real `BroadcastChannel`: two BroadcastChannel
// objects of one name deliver to each other within a page, and a second lock
// request queues behind the first, so two coordinators in one page behave like
// two tabs. A fresh namespace per test keeps runs from sharing a lock.

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function browserTab(namespace: string, name: string) {
  const becameLeader = deferred();
  const messages: Array<{ message: TabMessage; from: string }> = [];
  let onNextMessage = deferred<TabMessage>();
  const coordinator: TabCoordinator = createTabCoordinator({
    namespace,
    createTabId: () => name,
    onLeadershipChange: (leader) => {
      if (leader) becameLeader.resolve();
    },
    onMessage: (message, from) => {
      messages.push({ message, from });
      onNextMessage.resolve(message);
    },
  });
  return {
    coordinator,
    becameLeader: becameLeader.promise,
    messages,
    nextMessage: (type: TabMessage["type"]) => {
      const wait = async (): Promise<TabMessage> => {
        for (;;) {
          const found = messages.find((item) => item.message.type === type);
          if (found) return found.message;
          onNextMessage = deferred<TabMessage>();
          await onNextMessage.promise;
        }
      };
      return wait();
    },
  };
}

test("the platform has Web Locks and BroadcastChannel here", () => {
  expect(defaultLocks()).toBe(navigator.locks);
  const channel = defaultOpenChannel("agui-outbox:probe");
  expect(channel).toBeInstanceOf(BroadcastChannel);
  channel?.close();
});

test("two coordinators in one page: one leads, stopping it hands over, messages cross", async () => {
  const namespace = `browser-${crypto.randomUUID()}`;
  const a = browserTab(namespace, "a");
  const b = browserTab(namespace, "b");
  await a.coordinator.start();
  await a.becameLeader;
  await b.coordinator.start();
  expect(a.coordinator.state).toMatchObject({ leader: true, supported: true });
  expect(b.coordinator.state).toMatchObject({ leader: false, supported: true });
  const held = await navigator.locks.query();
  expect(held.held?.filter((lock) => lock.name === `agui-outbox:${namespace}`)).toHaveLength(1);
  expect(held.pending?.filter((lock) => lock.name === `agui-outbox:${namespace}`)).toHaveLength(1);

  // b said hello on start; the leader answers with its id.
  await expect(b.nextMessage(TabMessageType.leader)).resolves.toEqual({ type: "leader", tabId: "a" });
  expect(b.coordinator.state.leaderTabId).toBe("a");

  const event = { type: EventType.RUN_STARTED, threadId: "thread-1", runId: "run-1" } as const;
  expect(
    a.coordinator.broadcast({ type: TabMessageType.threadEvents, threadId: "thread-1", events: [event] }),
  ).toBe(true);
  await expect(b.nextMessage(TabMessageType.threadEvents)).resolves.toEqual({
    type: "thread-events",
    threadId: "thread-1",
    events: [event],
  });
  expect(a.messages.some((item) => item.message.type === TabMessageType.threadEvents)).toBe(false);

  await a.coordinator.stop();
  expect(a.coordinator.state.leader).toBe(false);
  await b.becameLeader;
  expect(b.coordinator.state).toMatchObject({ leader: true, leaderTabId: "b" });
  await b.coordinator.stop();
  const after = await navigator.locks.query();
  expect(after.held?.some((lock) => lock.name === `agui-outbox:${namespace}`)).toBe(false);
});

test("two namespaces in one page each get their own leader", async () => {
  const run = crypto.randomUUID();
  const alice = browserTab(`alice-${run}`, "alice");
  const bob = browserTab(`bob-${run}`, "bob");
  await alice.coordinator.start();
  await bob.coordinator.start();
  await Promise.all([alice.becameLeader, bob.becameLeader]);
  expect(alice.coordinator.state.leader).toBe(true);
  expect(bob.coordinator.state.leader).toBe(true);
  await alice.coordinator.stop();
  await bob.coordinator.stop();
});

test("a follower's announcement over a real BroadcastChannel resolves once the real leader acknowledged it", async () => {
  const namespace = `browser-${crypto.randomUUID()}`;
  const leader = browserTab(namespace, "leader");
  const follower = browserTab(namespace, "follower");
  await leader.coordinator.start();
  await leader.becameLeader;
  await follower.coordinator.start();
  await follower.nextMessage(TabMessageType.leader);
  const entry = {
    key: "key-1",
    namespace,
    threadId: "thread-1",
    interruptId: "interrupt-1",
    runId: "run-1",
    body: "{}",
    decision: { kind: "approve" },
    state: "queued",
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: "run-1", lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: 1,
    updatedAt: 1,
    expiresAt: 2,
  } as const;
  const result = await follower.coordinator.announce("key-1", {
    type: TabMessageType.entryAdded,
    key: "key-1",
    entry,
  });
  expect(result).toBe("acknowledged");
  // The leader had the message before the follower's answer resolved.
  expect(leader.messages.map((item) => item.message.type)).toContain(TabMessageType.entryAdded);
  await follower.coordinator.stop();
  await leader.coordinator.stop();
});
