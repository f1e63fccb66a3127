import { expect, test } from "vitest";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { OUTBOX_DB_VERSION } from "../../src/outbox/idb-store";
import { MemoryStore } from "../../src/outbox/memory-store";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import { FINAL_ENTRY_RETENTION_MS } from "../../src/outbox/retention";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";
import {
  askForDeployment,
  chaos,
  type Harness,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

// Storage and tabs that cannot lose or resurrect an answer: tabs of one browser
// share one IndexedDB (fake-indexeddb), one lock manager and one broadcast hub.
// Every assertion about delivery is made at the server: requests per key, the ledger.

function browser(harness: Harness) {
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const requests: RequestRecord[] = [];
  const tab = () =>
    makeClient(harness, {
      deps: {
        locks: () => locks,
        openChannel: (name) => hub.openChannel(name),
        fetch: recordingFetch(requests),
      },
    });
  return { tab, requests };
}

function until(client: OutboxClient, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error("the condition never held"));
    }, timeoutMs);
    const check = () => {
      if (!predicate()) return;
      clearTimeout(timer);
      stop();
      resolve();
    };
    const stop = client.outbox.subscribe(check);
    check();
  });
}

const resumesFor = (requests: readonly RequestRecord[], key: string) =>
  requests.filter((request) => request.idempotencyKey === key && request.method === "POST");

test("a follower answers and is closed in the same task: the leader sends the answer, once, without a reload", async () => {
  const harness = await startHarness();
  const { tab, requests } = browser(harness);
  const leader = tab();
  const follower = tab();
  await leader.start();
  await follower.start();
  expect(follower.connection.getState().leader).toBe(false);
  const interrupt = await askForDeployment(leader, "t-close");

  const entry = await follower.answer({ threadId: "t-close", interruptId: interrupt.id, approved: true });
  follower.dispose(); // the person closed the tab right after clicking

  const final = await settled(leader, entry.key);
  expect(final.state).toBe("applied");
  expect(resumesFor(requests, entry.key)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("two tabs answering differently at the same moment: each card shows its own truth", async () => {
  const harness = await startHarness();
  const { tab } = browser(harness);
  const first = tab();
  const second = tab();
  await first.start();
  await second.start();
  const interrupt = await askForDeployment(first, "t-truth");
  const [approve, reject] = await Promise.all([
    first.answer({ threadId: "t-truth", interruptId: interrupt.id, approved: true }),
    second.answer({ threadId: "t-truth", interruptId: interrupt.id, approved: false }),
  ]);
  await Promise.all([settled(first, approve.key), settled(second, reject.key)]);
  await until(first, () => first.outbox.getState().entries.length === 2);
  await until(second, () => second.outbox.getState().entries.length === 2);

  // The approval ran (the ledger says so) ...
  expect(await ledger(harness)).toHaveLength(1);
  // ... the tab that approved says applied, with its own decision ...
  const winner = first.entryFor("t-truth", interrupt.id);
  expect(winner).toMatchObject({ key: approve.key, state: "applied", decision: { kind: "approve" } });
  // ... and the tab that rejected says answered elsewhere, showing what was recorded.
  const loser = second.entryFor("t-truth", interrupt.id);
  expect(loser).toMatchObject({ key: reject.key, state: "elsewhere", decision: { kind: "reject" } });
  expect(loser?.recordedDecisions?.[0]).toMatchObject({ status: "resolved", payload: { approved: true } });
});

/** A store whose entry writes can be held, so a sign-out can land while one is in flight. */
function gatedStore() {
  const inner = new MemoryStore();
  let holding = false;
  let held: Array<() => void> = [];
  let noteHeld = () => {};
  let wipesWhileHeld = 0;
  const gate = () =>
    holding
      ? new Promise<void>((resolve) => {
          held.push(resolve);
          noteHeld();
        })
      : Promise.resolve();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "clear")
        return (...args: unknown[]) => {
          if (held.length > 0) wipesWhileHeld += 1;
          return value.apply(target, args);
        };
      if (property !== "put" && property !== "commit") return value.bind(target);
      return async (...args: unknown[]) => {
        await gate();
        return value.apply(target, args);
      };
    },
  }) as OutboxStore;
  return {
    store,
    inner,
    /** Wipes asked for while an entry write was held. */
    wipesWhileHeld: () => wipesWhileHeld,
    /** Holds the next entry writes; resolves once one is waiting. */
    hold(): Promise<void> {
      holding = true;
      return new Promise((resolve) => {
        noteHeld = resolve;
      });
    },
    release(): void {
      holding = false;
      for (const resolve of held) resolve();
      held = [];
    },
  };
}

test("sign out while a delivery write is in flight: the wipe waits for it, nothing comes back, nothing is resent", async () => {
  const harness = await startHarness({ toolDurationMs: 300 });
  const requests: RequestRecord[] = [];
  const gated = gatedStore();
  const client = makeClient(harness, { storage: gated.store, deps: { fetch: recordingFetch(requests) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-signout");
  const writeHeld = gated.hold();
  const entry = await client.answer({ threadId: "t-signout", interruptId: interrupt.id, approved: true });
  await writeHeld; // the delivery's first write (sending) is on its way to storage

  const signingOut = client.clear();
  // Sign-out reaches its wait in microtasks (a started client, a memory store): one turn
  // of the event loop later it waits, or it has wiped, which is counted below.
  await new Promise((resolve) => setImmediate(resolve));
  gated.release();
  await signingOut;
  expect(gated.wipesWhileHeld()).toBe(0);

  expect(client.outbox.getState().entries).toEqual([]);
  expect(await gated.inner.listByNamespace("user-1")).toEqual([]);
  client.dispose();

  // The next page on the same storage finds nothing to send.
  const reloaded = makeClient(harness, { storage: gated.store, deps: { fetch: recordingFetch(requests) } });
  await reloaded.start();
  // The start read sends what storage holds (start-read.ts): it holds nothing, so nothing
  // is scheduled, and an empty outbox has nothing to send later.
  expect(reloaded.outbox.getState().entries).toEqual([]);
  expect(resumesFor(requests, entry.key).length).toBeLessThanOrEqual(1);
  expect(await gated.inner.listByNamespace("user-1")).toEqual([]);
});

test("the database is upgraded by another page while an answer waits for its retry: it reopens, the answer is delivered once", async () => {
  const harness = await startHarness();
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-upgrade");
  await chaos(harness, [{ point: "before-response", action: "status", status: 503, retryAfterMs: 1_000 }]);
  const entry = await client.answer({ threadId: "t-upgrade", interruptId: interrupt.id, approved: true });
  await until(client, () => client.entryFor("t-upgrade", interrupt.id)?.state === "retry_wait");

  // Another page with newer code opens the database at a higher version.
  const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = harness.indexedDB.open("outbox-test", OUTBOX_DB_VERSION + 1);
    request.onblocked = () => reject(new Error("the upgrade was blocked by this page"));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  upgraded.close();

  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(client.outbox.getState()).toMatchObject({ durable: true });
  expect(resumesFor(requests, entry.key)).toHaveLength(2); // the 503, then the delivery
  expect(await ledger(harness)).toHaveLength(1);
});

test("retention: an applied entry goes after the window, in every tab, not before", async () => {
  const harness = await startHarness();
  let now = Date.now();
  const locks = new InMemoryLockManager();
  const hub = new InMemoryBroadcastHub();
  const tab = () =>
    makeClient(harness, {
      deps: { locks: () => locks, openChannel: (name) => hub.openChannel(name), now: () => now },
    });
  const leader = tab();
  const follower = tab();
  await leader.start();
  await follower.start();
  const interrupt = await askForDeployment(leader, "t-retention");
  const entry = await leader.answer({ threadId: "t-retention", interruptId: interrupt.id, approved: true });
  expect((await settled(leader, entry.key)).state).toBe("applied");
  await until(follower, () => follower.outbox.getState().entries.length === 1);

  // Inside the window nothing goes; past it the applied entry goes everywhere.
  now += FINAL_ENTRY_RETENTION_MS - 1;
  leader.dispose();
  await until(follower, () => follower.connection.getState().leader);
  expect(follower.outbox.getState().entries).toHaveLength(1);
  now += 2;
  const reloaded = tab();
  await reloaded.start();
  await until(follower, () => follower.outbox.getState().entries.length === 0);
  await until(reloaded, () => reloaded.outbox.getState().entries.length === 0);
});

test("the database cannot be reopened (newer code dropped the outbox): the outbox says so and delivery goes on from memory, once", async () => {
  const harness = await startHarness();
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-gone");
  await chaos(harness, [{ point: "before-response", action: "status", status: 503, retryAfterMs: 1_000 }]);
  const entry = await client.answer({ threadId: "t-gone", interruptId: interrupt.id, approved: true });
  await until(client, () => client.entryFor("t-gone", interrupt.id)?.state === "retry_wait");

  await new Promise<void>((resolve, reject) => {
    const request = harness.indexedDB.open("outbox-test", OUTBOX_DB_VERSION + 1);
    request.onupgradeneeded = () => request.result.deleteObjectStore("entries");
    request.onblocked = () => reject(new Error("the upgrade was blocked by this page"));
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });

  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  const state = client.outbox.getState();
  expect(state.durable).toBe(false);
  expect(state.storageError?.kind).toBe("storage_unavailable");
  expect(state.storageError?.message).toContain("not an outbox database");
  expect(resumesFor(requests, entry.key)).toHaveLength(2);
  expect(await ledger(harness)).toHaveLength(1);
});

test("two tabs each answer one question of a two-question run at the same moment: one request, both applied, each tool once", async () => {
  const harness = await startHarness();
  const { tab, requests } = browser(harness);
  const first = tab();
  const second = tab();
  await first.start();
  await second.start();
  const thread = first.thread("t-two-tabs");
  await thread.send("deploy to prod and staging");
  const [prod, staging] = thread.store.getState().pendingInterrupts;
  if (!prod || !staging) throw new Error("two interrupts expected");
  const [a, b] = await Promise.all([
    first.answer({ threadId: "t-two-tabs", interruptId: prod.id, approved: true }),
    second.answer({ threadId: "t-two-tabs", interruptId: staging.id, approved: true }),
  ]);
  const final = await Promise.all([settled(first, a.key), settled(first, b.key)]);
  expect(final.map((entry) => entry.state)).toEqual(["applied", "applied"]);
  const resumes = requests.filter((request) => request.idempotencyKey !== null && request.method === "POST");
  expect(new Set(resumes.map((request) => request.idempotencyKey)).size).toBe(1);
  expect((await ledger(harness)).map((execution) => execution.toolCallId).sort()).toEqual(
    [prod.toolCallId, staging.toolCallId].sort(),
  );
});
