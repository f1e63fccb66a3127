import { createOutboxClient, MemoryStore } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { backgroundRuns } from "../src/index";

test("a tab that holds the lock before its first read is done reads the background runs once", async () => {
  const store = new MemoryStore();
  let reads = 0;
  const listBackgroundRuns = store.listBackgroundRuns.bind(store);
  store.listBackgroundRuns = (namespace: string) => {
    reads += 1;
    return listBackgroundRuns(namespace);
  };
  // Leading ends by setting the background runs going, after any read it makes.
  let activated = () => {};
  const led = new Promise<void>((resolve) => {
    activated = resolve;
  });
  const background = backgroundRuns();
  // No Web Locks: the only tab, leader from the start.
  const client = createOutboxClient({
    url: "http://127.0.0.1:9/agent",
    namespace: "reads",
    storage: store,
    plugins: [
      {
        attach: (context) => {
          const runner = background.attach(context);
          const activate = runner.activate.bind(runner);
          runner.activate = () => {
            activate();
            activated();
          };
          return runner;
        },
      },
    ],
    deps: {
      locks: () => undefined,
      openChannel: () => undefined,
      fetch: async () => new Response(JSON.stringify({ kind: "contract" }), { status: 200 }),
    },
  });
  await client.start();
  await led;
  expect(client.connection.getState().leader).toBe(true);
  expect(reads).toBe(1);
  client.dispose();
});
