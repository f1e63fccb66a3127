import { expect, test } from "vitest";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { MemoryStore } from "../../src/outbox/memory-store";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import {
  askForDeployment,
  type Harness,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

// Two tabs of one browser: one IndexedDB, one lock manager, one broadcast hub.
function browser(harness: Harness) {
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const storage = new MemoryStore();
  const requests: RequestRecord[] = [];
  const tab = () =>
    makeClient(harness, {
      storage,
      deps: {
        locks: () => locks,
        openChannel: (name) => hub.openChannel(name),
        fetch: recordingFetch(requests),
      },
    });
  return { tab, requests };
}

function until(client: OutboxClient, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!predicate()) return;
      stop();
      resolve();
    };
    const stop = client.outbox.subscribe(check);
    check();
  });
}

test("two tabs: exactly one sends, the other mirrors the outbox and the thread and agrees on the verdict", async () => {
  const harness = await startHarness();
  const { tab, requests } = browser(harness);
  const first = tab();
  const second = tab();
  await first.start();
  await second.start();
  expect([first.connection.getState().leader, second.connection.getState().leader]).toEqual([true, false]);

  const interrupt = await askForDeployment(first, "t-tabs");
  expect(
    second
      .thread("t-tabs")
      .store.getState()
      .pendingInterrupts.map((pending) => pending.id),
  ).toEqual([interrupt.id]);

  // The person answers in the follower tab; the leader sends it.
  const entry = await second.answer({ threadId: "t-tabs", interruptId: interrupt.id, approved: true });
  const [inLeader, inFollower] = await Promise.all([settled(first, entry.key), settled(second, entry.key)]);

  expect(inLeader.state).toBe("applied");
  expect(inFollower.state).toBe("applied");
  expect(requests.filter((request) => request.idempotencyKey === entry.key)).toHaveLength(1);
  expect(
    second
      .thread("t-tabs")
      .store.getState()
      .messages.map((message) => message.role),
  ).toContain("tool");
  expect(await ledger(harness)).toHaveLength(1);
});

test("the sending tab closes mid-delivery: the other tab takes over and finishes with the same key", async () => {
  const harness = await startHarness({ toolDurationMs: 200 });
  const { tab } = browser(harness);
  const first = tab();
  const second = tab();
  await first.start();
  await second.start();
  const interrupt = await askForDeployment(first, "t-takeover");
  const entry = await first.answer({ threadId: "t-takeover", interruptId: interrupt.id, approved: true });
  await until(first, () => first.entryFor("t-takeover", interrupt.id)?.state === "streaming");

  first.dispose();
  await until(second, () => second.connection.getState().leader);
  const final = await settled(second, entry.key);

  expect(final.state).toBe("applied");
  expect(final.key).toBe(entry.key);
  expect(await ledger(harness)).toHaveLength(1);
});

test("two tabs answering the same way make one entry; answering differently ends applied and answered elsewhere", async () => {
  const harness = await startHarness();
  const { tab } = browser(harness);
  const first = tab();
  const second = tab();
  await first.start();
  await second.start();
  const same = await askForDeployment(first, "t-same");
  const [a, b] = await Promise.all([
    first.answer({ threadId: "t-same", interruptId: same.id, approved: true }),
    second.answer({ threadId: "t-same", interruptId: same.id, approved: true }),
  ]);
  expect(b.key).toBe(a.key);
  await settled(first, a.key);

  const differ = await askForDeployment(first, "t-differ");
  const approve = await first.answer({ threadId: "t-differ", interruptId: differ.id, approved: true });
  const reject = await second.answer({ threadId: "t-differ", interruptId: differ.id, approved: false });
  const verdicts = await Promise.all([
    settled(first, approve.key),
    settled(second, reject.key),
    settled(first, reject.key),
  ]);

  expect(verdicts.map((entry) => entry.state)).toEqual(["applied", "elsewhere", "elsewhere"]);
  expect(await ledger(harness)).toHaveLength(2);
});
