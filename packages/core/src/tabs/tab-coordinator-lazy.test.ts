// A thread event another tab forwards is checked as the stream reader checks one: a
// run's ordinary events by hand, in the turn they arrive; any other event with the
// AG-UI schemas, loaded on demand (stream/load-event-validator.ts). This file starts
// without them, in its own module graph: what arrives behind an event that waits is
// read once the schemas are here, in order, and judged as the schema judges it.
import { expect, test } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import { loadEventValidator } from "../stream/load-event-validator";
import { createTabCoordinator, DropReason } from "./tab-coordinator";
import type { TabMessage } from "./tab-message";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-message";

function world() {
  const tasks: Array<() => void> = [];
  const hub = new InMemoryBroadcastHub({ schedule: (task) => tasks.push(task) });
  const received: TabMessage[] = [];
  const dropped: DropReason[] = [];
  const listener = createTabCoordinator({
    namespace: "alice",
    locks: () => new InMemoryLockManager(),
    openChannel: hub.openChannel,
    createTabId: () => "b",
    onLeadershipChange: () => {},
    onMessage: (message) => received.push(message),
    onDropped: (reason) => dropped.push(reason),
  });
  const channel = hub.openChannel("agui-outbox:alice");
  const send = (message: unknown) => {
    channel.postMessage({
      protocol: TAB_PROTOCOL,
      version: TAB_PROTOCOL_VERSION,
      from: "a",
      namespace: "alice",
      message,
    });
    while (tasks.length > 0) tasks.shift()?.();
  };
  return { listener, channel, send, received, dropped };
}

const threadEvent = (event: unknown) => ({
  type: TabMessageType.threadEvents,
  threadId: "t1",
  events: [event],
});

test("a run's ordinary events are read in the turn they arrive; a snapshot waits for the schemas, and what follows waits behind it", async () => {
  const { listener, channel, send, received, dropped } = world();
  await listener.start();
  const delta = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" };
  send(threadEvent(delta));
  expect(received).toEqual([threadEvent(delta)]);

  const snapshot = { type: "STATE_SNAPSHOT", snapshot: { step: 2 } };
  send(threadEvent(snapshot));
  send({ type: TabMessageType.entriesRemoved, keys: ["k1"] });
  send(threadEvent({ type: "STATE_SNAPSHOT" }));
  send({ type: TabMessageType.leader, tabId: "a" });
  // Heard, not yet read: the snapshot waits for the schemas, the rest behind it.
  expect(received).toHaveLength(1);
  expect(listener.state.leaderTabId).toBe("b");
  // The coordinator asked first, so its reading runs before this await resumes.
  await loadEventValidator();
  expect(received.slice(1)).toEqual([
    threadEvent(snapshot),
    { type: TabMessageType.entriesRemoved, keys: ["k1"] },
    { type: TabMessageType.leader, tabId: "a" },
  ]);
  // The snapshot without its `snapshot` is refused by the schema, as from a stream.
  expect(dropped).toEqual([DropReason.malformed]);
  expect(listener.state.leaderTabId).toBe("a");

  // Once the schemas are here, any event is read in the turn it arrives.
  send(threadEvent(snapshot));
  expect(received).toHaveLength(5);
  await listener.stop();
  channel.close();
});
