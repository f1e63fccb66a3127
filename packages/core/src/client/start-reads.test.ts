import { expect, test, vi } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { EntryState } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import { createOutboxClient } from "./create-outbox-client";

test("with a server kind cached, a recovered answer is handed to fetch before capabilities are asked", async () => {
  const store = new MemoryStore();
  await store.putMeta("order", "server-kind", "contract");
  await store.put(
    makeTestEntry({
      namespace: "order",
      state: EntryState.sending,
      attempts: 1,
      everSent: false,
      body: JSON.stringify({ threadId: "thread-1", runId: "run-order" }),
    }),
  );
  const asked: string[] = [];
  const client = createOutboxClient({
    url: "http://127.0.0.1:9/agent",
    namespace: "order",
    storage: store,
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: (input, init) => {
        asked.push(
          new Headers(init?.headers).has("idempotency-key") ? "resume" : input.replace(/.*\/agent/, ""),
        );
        return new Promise<Response>(() => {});
      },
    },
  });
  // Disposed below while its capabilities read hangs: start() then rejects `disposed`, by design.
  void client.start().catch(() => {});
  await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(2));
  expect(asked.slice(0, 2)).toEqual(["resume", "/capabilities"]);
  client.dispose();
});

test("a start reads only the open entries; the settled ones follow without delaying it", async () => {
  const store = new MemoryStore();
  const applied = makeTestEntry({ namespace: "sets", state: EntryState.applied, interruptId: "done" });
  const lost = makeTestEntry({ namespace: "sets", state: EntryState.lost, interruptId: "kept" });
  for (const entry of [applied, lost]) await store.put(entry);
  const sets: (string | undefined)[] = [];
  const listByNamespace = store.listByNamespace.bind(store);
  store.listByNamespace = (namespace, set) => {
    sets.push(set);
    return listByNamespace(namespace, set);
  };
  const client = createOutboxClient({
    url: "http://127.0.0.1:9/agent",
    namespace: "sets",
    storage: store,
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: async () => new Response(JSON.stringify({ kind: "contract" }), { status: 200 }),
    },
  });
  const keys = () => client.outbox.getState().entries.map((entry) => entry.key);
  let atReady: string[] | undefined;
  const settledArrived = new Promise<void>((resolve) => {
    const stop = client.outbox.subscribe((state) => {
      if (state.ready) atReady ??= keys();
      if (keys().includes(applied.key)) resolve(stop());
    });
  });
  await client.start();
  await settledArrived;
  expect(atReady).toEqual([lost.key]);
  expect(keys()).toEqual([applied.key, lost.key]);
  // No read of every entry: the start's own read is the open ones, then the settled.
  expect(sets).toEqual(["settled"]);
  client.dispose();
});
