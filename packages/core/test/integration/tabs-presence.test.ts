import { expect, test } from "vitest";
import type { ChannelLike, ChannelListener } from "../../src/tabs/channel";
import type { TabEnvelope } from "../../src/tabs/tab-message";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import { askForDeployment, makeClient, startHarness } from "./harness";

// Tabs of one browser whose channels log every thread message they post.
async function browser() {
  const harness = await startHarness();
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const posted: { from: string; events: number }[] = [];
  // Calls each waiter once a tab's listener has heard another tab's goodbye.
  const byeHeard = new Set<() => void>();
  const wrapped = new Map<ChannelListener, ChannelListener>();
  const logged = (from: string, channel: ChannelLike): ChannelLike => ({
    postMessage(data) {
      const { message } = data as TabEnvelope;
      // A message per event, or per task's worth of events.
      // On the channel a thread message's events are one JSON text.
      if (message.type === "thread-events")
        posted.push({ from, events: JSON.parse(`${message.events}`).length });
      else if ((message.type as string) === "thread-event") posted.push({ from, events: 1 });
      channel.postMessage(data);
    },
    addEventListener: (type, listener) => {
      const heard: ChannelListener = (event) => {
        listener(event);
        if ((event.data as TabEnvelope).message.type === "bye") for (const wake of byeHeard) wake();
      };
      wrapped.set(listener, heard);
      channel.addEventListener(type, heard);
    },
    removeEventListener: (type, listener) =>
      channel.removeEventListener(type, wrapped.get(listener) ?? listener),
    close: () => channel.close(),
  });
  let tabs = 0;
  const tab = () => {
    tabs += 1;
    const from = `tab-${tabs}`;
    return makeClient(harness, {
      deps: { locks: () => locks, openChannel: (name) => logged(from, hub.openChannel(name)) },
    });
  };
  const nextBye = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        byeHeard.delete(wake);
        resolve();
      };
      byeHeard.add(wake);
    });
  return { tab, posted, nextBye };
}

test("a tab alone posts no thread events; with another tab there, one message carries a task's events", async () => {
  const { tab, posted, nextBye } = await browser();
  const first = tab();
  await first.start();
  await askForDeployment(first, "t-alone");
  expect(posted).toEqual([]);

  const second = tab();
  await second.start();
  const interrupt = await askForDeployment(first, "t-shared");
  // The follower mirrors the thread, its question included.
  expect(
    second
      .thread("t-shared")
      .store.getState()
      .pendingInterrupts.map((pending) => pending.id),
  ).toEqual([interrupt.id]);
  const fromFirst = posted.filter((message) => message.from === "tab-1");
  const events = fromFirst.reduce((sum, message) => sum + message.events, 0);
  expect(fromFirst.length).toBeLessThan(events);

  const gone = nextBye();
  second.dispose();
  await gone;
  posted.length = 0;
  await askForDeployment(first, "t-alone-again");
  expect(posted).toEqual([]);
  first.dispose();
});
