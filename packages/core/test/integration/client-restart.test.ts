import { expect, test } from "vitest";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import { MemoryStore } from "../../src/outbox/memory-store";
import type { OutboxStore } from "../../src/outbox/outbox-store";
import { answersNeverArrive, askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

// A reload is a second client on the same storage after the first one stopped
// mid-phase, as a page that dies would. Each test asserts the verdict of the
// next page and that the tool ran exactly once.

/** Resolves when `predicate` holds for the client's state (outbox or thread). */
function when(client: OutboxClient, threadId: string, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!predicate()) return;
      stopOutbox();
      stopThread();
      resolve();
    };
    const stopOutbox = client.outbox.subscribe(check);
    const stopThread = client.thread(threadId).store.subscribe(check);
    check();
  });
}

/** Storage that freezes after `allowedWrites` writes: the page died right after them. */
function freezingAfter(store: OutboxStore, allowedWrites: number): OutboxStore {
  let writes = 0;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      if (property !== "put" && property !== "commit" && property !== "putIfAbsentForInterrupt")
        return method;
      return (...args: unknown[]) => {
        writes += 1;
        if (writes > allowedWrites) return new Promise(() => {});
        return method(...args);
      };
    },
  });
}

test("reload after the answer is written but before it is sent: the next page sends it, once", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const first = makeClient(harness, { storage: freezingAfter(storage, 1) });
  await first.start();
  const interrupt = await askForDeployment(first, "t-queued");
  const entry = await first.answer({ threadId: "t-queued", interruptId: interrupt.id, approved: true });
  first.dispose();
  expect((await storage.get(entry.key))?.state).toBe("queued");
  expect(await ledger(harness)).toHaveLength(0);

  const next = makeClient(harness, { storage });
  await next.start();
  const final = await settled(next, entry.key);
  expect(final.state).toBe("applied");
  expect(final.key).toBe(entry.key);
  expect(await ledger(harness)).toHaveLength(1);
});

test("reload while the request is in flight: the same key is sent again and the outcome is replayed", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const dying = answersNeverArrive();
  // The request reaches the server, which runs it to the end; the page never sees the answer.
  const first = makeClient(harness, { storage, deps: { fetch: dying.fetch } });
  await first.start();
  const interrupt = await askForDeployment(first, "t-inflight");
  const entry = await first.answer({ threadId: "t-inflight", interruptId: interrupt.id, approved: true });
  await dying.reached;
  first.dispose();
  expect((await storage.get(entry.key))?.state).toBe("sending");
  expect(await ledger(harness)).toHaveLength(1);

  const next = makeClient(harness, { storage });
  await next.start();
  const final = await settled(next, entry.key);
  expect(final.state).toBe("applied");
  expect(final.replayed).toBe(true);
  expect(await ledger(harness)).toHaveLength(1);
});

test("reload after the claim acknowledgement: the next page re-attaches instead of resending", async () => {
  const harness = await startHarness({ toolDurationMs: 200 });
  const storage = new MemoryStore();
  const first = makeClient(harness, { storage });
  await first.start();
  const interrupt = await askForDeployment(first, "t-acked");
  const entry = await first.answer({ threadId: "t-acked", interruptId: interrupt.id, approved: true });
  await when(first, "t-acked", () => first.entryFor("t-acked", interrupt.id)?.cursor.acked === true);
  first.dispose();
  const stored = await storage.get(entry.key);
  expect(stored?.state).toBe("streaming");

  const next = makeClient(harness, { storage });
  await next.start();
  const final = await settled(next, entry.key);
  expect(final.state).toBe("applied");
  expect(final.attempts).toBe(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("reload after the tool ran but before the run finished: re-attached, applied, one execution", async () => {
  const harness = await startHarness({ toolDurationMs: 5 });
  const storage = new MemoryStore();
  const first = makeClient(harness, { storage });
  await first.start();
  const interrupt = await askForDeployment(first, "t-tool-ran");
  const entry = await first.answer({ threadId: "t-tool-ran", interruptId: interrupt.id, approved: true });
  await when(first, "t-tool-ran", () =>
    first
      .thread("t-tool-ran")
      .store.getState()
      .messages.some((message) => message.role === "tool"),
  );
  first.dispose();
  expect(await ledger(harness)).toHaveLength(1);

  const next = makeClient(harness, { storage });
  await next.start();
  const final = await settled(next, entry.key);
  expect(final.state).toBe("applied");
  expect(final.attempts).toBe(1);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a reload after the retention window: reconciled by the run's status instead of resent", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const dying = answersNeverArrive();
  const requests: string[] = [];
  const first = makeClient(harness, { storage, deps: { fetch: dying.fetch } });
  await first.start();
  const interrupt = await askForDeployment(first, "t-day-later");
  const entry = await first.answer({ threadId: "t-day-later", interruptId: interrupt.id, approved: true });
  await dying.reached;
  first.dispose();

  const dayLater = () => Date.now() + 24 * 60 * 60 * 1000;
  const next = makeClient(harness, {
    storage,
    deps: {
      now: dayLater,
      fetch: (input, init) => {
        requests.push(`${init?.method ?? "GET"} ${new URL(input).pathname}`);
        return fetch(input, init);
      },
    },
  });
  await next.start();
  const final = await settled(next, entry.key);

  expect(final.state).toBe("applied");
  expect(requests).toContain(`GET /agent/runs/${entry.runId}`);
  expect(requests.filter((request) => request === "POST /agent")).toHaveLength(0);
  expect(await ledger(harness)).toHaveLength(1);
});
