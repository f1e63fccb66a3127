// Presence: a tab knows whether another tab of its namespace is there, so a tab
// alone need not post what nobody would read.
import { expect, test } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import { createTabCoordinator } from "./tab-coordinator";

function world() {
  const tasks: Array<() => void> = [];
  const hub = new InMemoryBroadcastHub({ schedule: (task) => tasks.push(task) });
  const locks = new InMemoryLockManager();
  const tab = (id: string) =>
    createTabCoordinator({
      namespace: "alice",
      locks: () => locks,
      openChannel: hub.openChannel,
      createTabId: () => id,
      onLeadershipChange: () => {},
      onMessage: () => {},
    });
  const flush = () => {
    while (tasks.length > 0) tasks.shift()?.();
  };
  return { tab, flush };
}

test("every tab learns of every other one on joining, and forgets it when it says bye", async () => {
  const { tab, flush } = world();
  const a = tab("a");
  const b = tab("b");
  const c = tab("c");
  await a.start();
  flush();
  expect(a.state.others).toBe(0);

  await b.start();
  flush();
  expect([a.state.others, b.state.others]).toEqual([1, 1]);

  // c hears the leader (a) and the follower (b) answer its hello.
  await c.start();
  flush();
  expect([a.state.others, b.state.others, c.state.others]).toEqual([2, 2, 2]);

  await b.stop();
  flush();
  expect([a.state.others, b.state.others, c.state.others]).toEqual([1, 0, 1]);
  await c.stop();
  flush();
  expect(a.state.others).toBe(0);
  await a.stop();
});
