import { expect, test } from "vitest";
import { MemoryStore } from "../outbox/memory-store";
import { createOutboxClient } from "./create-outbox-client";

test("a tab that holds the lock before its first read is done reads the background runs once", async () => {
  const store = new MemoryStore();
  let reads = 0;
  const listBackgroundRuns = store.listBackgroundRuns.bind(store);
  store.listBackgroundRuns = (namespace: string) => {
    reads += 1;
    return listBackgroundRuns(namespace);
  };
  // No Web Locks: the only tab, leader from the start.
  const client = createOutboxClient({
    url: "http://127.0.0.1:9/agent",
    namespace: "reads",
    storage: store,
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: async () => new Response(JSON.stringify({ kind: "contract" }), { status: 200 }),
    },
  });
  await client.start();
  // Leadership activates after start resolves: let it run.
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(client.connection.getState().leader).toBe(true);
  expect(reads).toBe(1);
  client.dispose();
});
