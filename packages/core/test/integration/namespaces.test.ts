import { afterEach, expect, test, vi } from "vitest";
import { IdbStore } from "../../src/outbox/idb-store";
import {
  askForDeployment,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

afterEach(() => {
  vi.restoreAllMocks();
});

test("a second user on the same browser never sends the first user's answers", async () => {
  const harness = await startHarness();
  const alice = makeClient(harness, {
    namespace: "alice",
    deps: {
      fetch: (input, init) =>
        new Headers(init?.headers).has("idempotency-key")
          ? Promise.reject(new TypeError("offline"))
          : fetch(input, init),
    },
  });
  await alice.start();
  const interrupt = await askForDeployment(alice, "t-alice");
  const pending = await alice.answer({ threadId: "t-alice", interruptId: interrupt.id, approved: true });
  alice.dispose();

  const requests: RequestRecord[] = [];
  const bob = makeClient(harness, { namespace: "bob", deps: { fetch: recordingFetch(requests) } });
  await bob.start();
  const own = await askForDeployment(bob, "t-bob");
  const bobs = await bob.answer({ threadId: "t-bob", interruptId: own.id, approved: true });
  await settled(bob, bobs.key);

  expect(bob.outbox.getState().entries.map((entry) => entry.key)).toEqual([bobs.key]);
  expect(requests.some((request) => request.idempotencyKey === pending.key)).toBe(false);
  expect((await ledger(harness)).map((execution) => execution.toolCallId)).toEqual([own.id]);
});

test("signing out clears that user's answers and leaves another user's alone", async () => {
  const harness = await startHarness();
  const alice = makeClient(harness, { namespace: "alice" });
  const bob = makeClient(harness, { namespace: "bob" });
  await alice.start();
  await bob.start();
  const a = await askForDeployment(alice, "t-a");
  const b = await askForDeployment(bob, "t-b");
  await settled(alice, (await alice.answer({ threadId: "t-a", interruptId: a.id, approved: true })).key);
  await settled(bob, (await bob.answer({ threadId: "t-b", interruptId: b.id, approved: true })).key);

  await alice.clear();

  expect(alice.outbox.getState().entries).toEqual([]);
  const store = await IdbStore.open({ indexedDB: harness.indexedDB, dbName: "outbox-test" });
  try {
    expect(await store.listByNamespace("alice")).toEqual([]);
    expect(await store.listByNamespace("bob")).toHaveLength(1);
  } finally {
    store.close();
  }
});

test("nothing is logged: no answer content can leak through the console", async () => {
  const calls = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => {}),
  );
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-quiet");
  await expect(
    client.answer({
      threadId: "t-quiet",
      interruptId: interrupt.id,
      approved: true,
      editedArgs: { target: "" },
    }),
  ).rejects.toThrow();
  const entry = await client.answer({
    threadId: "t-quiet",
    interruptId: interrupt.id,
    approved: true,
    editedArgs: { target: "secret-cluster-7" },
  });
  await settled(client, entry.key);

  for (const spy of calls) expect(spy).not.toHaveBeenCalled();
});
