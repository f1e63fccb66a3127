import { expect, test } from "vitest";
import { InMemoryBroadcastHub, InMemoryLockManager } from "../../testing/in-memory-tabs";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A hub whose deliveries wait until the test flushes them. */
function steppedHub() {
  const tasks: Array<() => void> = [];
  const hub = new InMemoryBroadcastHub({ schedule: (task) => tasks.push(task) });
  return {
    hub,
    pending: () => tasks.length,
    flush: () => {
      while (tasks.length > 0) tasks.shift()?.();
    },
  };
}

test("locks are exclusive and granted in request order when released", async () => {
  const locks = new InMemoryLockManager();
  const order: string[] = [];
  const releases = new Map<string, () => void>();
  const hold = (who: string) =>
    locks.request("L", { mode: "exclusive" }, () => {
      order.push(who);
      const release = deferred();
      releases.set(who, release.resolve);
      return release.promise.then(() => who);
    });
  const a = hold("a");
  const b = hold("b");
  const c = hold("c");
  expect(order).toEqual(["a"]);
  expect(locks.pending("L")).toBe(2);

  releases.get("a")?.();
  await expect(a).resolves.toBe("a");
  // The next waiter was granted before the released request settled.
  expect(order).toEqual(["a", "b"]);
  releases.get("b")?.();
  await expect(b).resolves.toBe("b");
  expect(order).toEqual(["a", "b", "c"]);
  releases.get("c")?.();
  await expect(c).resolves.toBe("c");
  expect(locks.isHeld("L")).toBe(false);
});

test("different lock names do not block each other", async () => {
  const locks = new InMemoryLockManager();
  const granted: string[] = [];
  const never = new Promise<void>(() => {});
  void locks.request("one", {}, () => {
    granted.push("one");
    return never;
  });
  void locks.request("two", {}, () => {
    granted.push("two");
    return never;
  });
  expect(granted).toEqual(["one", "two"]);
});

test("ifAvailable calls back with null when the lock is held and never queues", async () => {
  const locks = new InMemoryLockManager();
  const release = deferred();
  void locks.request("L", {}, () => release.promise);
  const seen = await locks.request("L", { ifAvailable: true }, (lock) => lock);
  expect(seen).toBeNull();
  expect(locks.pending("L")).toBe(0);
  release.resolve();
});

test("ifAvailable is granted a free lock", async () => {
  const locks = new InMemoryLockManager();
  const name = await locks.request("L", { ifAvailable: true }, (lock) => lock?.name);
  expect(name).toBe("L");
  expect(locks.isHeld("L")).toBe(false);
});

test("aborting a queued request removes it and rejects with the signal's reason", async () => {
  const locks = new InMemoryLockManager();
  const release = deferred();
  const first = locks.request("L", {}, () => release.promise);
  const abort = new AbortController();
  let called = false;
  const queued = locks.request("L", { signal: abort.signal }, () => {
    called = true;
  });
  expect(locks.pending("L")).toBe(1);
  const reason = new Error("left");
  abort.abort(reason);
  await expect(queued).rejects.toBe(reason);
  expect(locks.pending("L")).toBe(0);
  release.resolve();
  await first;
  expect(called).toBe(false);
  expect(locks.isHeld("L")).toBe(false);
});

test("an already aborted signal rejects without granting, and abort after grant has no effect", async () => {
  const locks = new InMemoryLockManager();
  const aborted = new AbortController();
  aborted.abort(new Error("before"));
  await expect(locks.request("L", { signal: aborted.signal }, () => "x")).rejects.toThrow("before");
  expect(locks.isHeld("L")).toBe(false);

  const later = new AbortController();
  const release = deferred();
  const held = locks.request("L", { signal: later.signal }, () => release.promise.then(() => "done"));
  later.abort();
  expect(locks.isHeld("L")).toBe(true);
  release.resolve();
  await expect(held).resolves.toBe("done");
});

test("a callback that throws or rejects releases the lock and rejects its request", async () => {
  const locks = new InMemoryLockManager();
  const failing = locks.request("L", {}, () => {
    throw new Error("sync failure");
  });
  let next = false;
  const after = locks.request("L", {}, () => {
    next = true;
  });
  await expect(failing).rejects.toThrow("sync failure");
  await after;
  expect(next).toBe(true);
  await expect(locks.request("L", {}, () => Promise.reject(new Error("async failure")))).rejects.toThrow(
    "async failure",
  );
  expect(locks.isHeld("L")).toBe(false);
});

test("signal with ifAvailable is refused, as the spec says", async () => {
  const locks = new InMemoryLockManager();
  await expect(
    locks.request("L", { ifAvailable: true, signal: new AbortController().signal }, () => 1),
  ).rejects.toMatchObject({ name: "NotSupportedError" });
});

test("a message reaches every other channel of the name, asynchronously, never the sender", () => {
  const { hub, flush } = steppedHub();
  const a = hub.openChannel("room");
  const b = hub.openChannel("room");
  const c = hub.openChannel("room");
  const other = hub.openChannel("elsewhere");
  const seen: string[] = [];
  a.addEventListener("message", (event) => seen.push(`a:${String(event.data)}`));
  b.addEventListener("message", (event) => seen.push(`b:${String(event.data)}`));
  c.addEventListener("message", (event) => seen.push(`c:${String(event.data)}`));
  other.addEventListener("message", (event) => seen.push(`other:${String(event.data)}`));
  a.postMessage("hi");
  expect(seen).toEqual([]);
  flush();
  expect(seen).toEqual(["b:hi", "c:hi"]);
});

test("the default schedule delivers in a microtask", async () => {
  const hub = new InMemoryBroadcastHub();
  const a = hub.openChannel("room");
  const b = hub.openChannel("room");
  const received = deferred<unknown>();
  b.addEventListener("message", (event) => received.resolve(event.data));
  a.postMessage({ n: 1 });
  await expect(received.promise).resolves.toEqual({ n: 1 });
});

test("receivers get a clone; uncloneable messages throw in postMessage", () => {
  const { hub, flush } = steppedHub();
  const a = hub.openChannel("room");
  const b = hub.openChannel("room");
  const received: unknown[] = [];
  b.addEventListener("message", (event) => received.push(event.data));
  const sent = { nested: { value: 1 } };
  a.postMessage(sent);
  sent.nested.value = 2;
  flush();
  expect(received).toEqual([{ nested: { value: 1 } }]);
  expect(received[0]).not.toBe(sent);
  expect(() => a.postMessage({ fn: () => {} })).toThrow();
});

test("closed channels receive nothing, cannot post, and removed listeners are not called", () => {
  const { hub, flush, pending } = steppedHub();
  const a = hub.openChannel("room");
  const b = hub.openChannel("room");
  const c = hub.openChannel("room");
  const seen: string[] = [];
  const onC = () => seen.push("c");
  b.addEventListener("message", () => seen.push("b"));
  c.addEventListener("message", onC);
  a.postMessage("one");
  expect(pending()).toBe(2);
  b.close();
  c.removeEventListener("message", onC);
  flush();
  expect(seen).toEqual([]);
  expect(hub.openCount("room")).toBe(2);
  expect(() => b.postMessage("late")).toThrow();
});
