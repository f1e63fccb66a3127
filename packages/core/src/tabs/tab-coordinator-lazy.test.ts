// The tab messages' schemas load the first time a tab hears a message
// (load-tab-envelope-parser.ts). This file starts without them, in its own module
// graph: what arrives before they are here is read once they are, in order, and
// judged exactly as afterwards.
import { expect, test, vi } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "./in-memory-tabs";
import { createTabCoordinator, DropReason } from "./tab-coordinator";
import type { TabMessage } from "./tab-message";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

test("messages heard before the schemas load are read once they have, in order, malformed ones dropped", async () => {
  const tasks: Array<() => void> = [];
  const hub = new InMemoryBroadcastHub({ schedule: (task) => tasks.push(task) });
  const locks = new InMemoryLockManager();
  const received: Array<{ message: TabMessage; from: string }> = [];
  const dropped: DropReason[] = [];
  const listener = createTabCoordinator({
    namespace: "alice",
    locks: () => locks,
    openChannel: hub.openChannel,
    createTabId: () => "b",
    onLeadershipChange: () => {},
    onMessage: (message, from) => received.push({ message, from }),
    onDropped: (reason) => dropped.push(reason),
  });
  await listener.start();
  const channel = hub.openChannel("agui-outbox:alice");
  const envelope = (message: unknown) => ({
    protocol: TAB_PROTOCOL,
    version: TAB_PROTOCOL_VERSION,
    from: "a",
    namespace: "alice",
    message,
  });
  channel.postMessage(envelope({ type: TabMessageType.entriesRemoved, keys: ["k1"] }));
  channel.postMessage(envelope({ type: TabMessageType.entriesRemoved, keys: [7] }));
  channel.postMessage(envelope({ type: TabMessageType.leader, tabId: "a" }));
  while (tasks.length > 0) tasks.shift()?.();
  // Heard, not yet read: the schemas are on their way.
  expect(received).toEqual([]);
  await vi.waitFor(() => expect(received).toHaveLength(2));
  expect(received).toEqual([
    { message: { type: TabMessageType.entriesRemoved, keys: ["k1"] }, from: "a" },
    { message: { type: TabMessageType.leader, tabId: "a" }, from: "a" },
  ]);
  expect(dropped).toEqual([DropReason.malformed]);
  expect(listener.state.leaderTabId).toBe("a");

  // From then on a message is read in the turn it is delivered.
  channel.postMessage(envelope({ type: TabMessageType.hello }));
  while (tasks.length > 0) tasks.shift()?.();
  expect(received.at(-1)).toEqual({ message: { type: TabMessageType.hello }, from: "a" });
  await listener.stop();
  channel.close();
});
