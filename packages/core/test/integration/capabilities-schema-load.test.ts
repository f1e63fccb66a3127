// A capabilities document the hand check leaves to the schema waits for it, loaded
// on demand; a failed load is read again after the usual backoff, never a dead end.
import { expect, test, vi } from "vitest";
import { VirtualTime } from "../support/virtual-time";
import { makeClient, startHarness, until } from "./harness";

const chunk = vi.hoisted(() => ({ fail: true }));
vi.mock("../../src/transport/validate-capabilities", async (importOriginal) => {
  if (chunk.fail) throw new TypeError("Failed to fetch dynamically imported module");
  return importOriginal();
});

test("the capabilities schema failing to load: the link is unreachable, capabilities are read again with backoff, then the kind is known", async () => {
  const harness = await startHarness();
  const served = await (await fetch(`${harness.server.url}/agent/capabilities`)).json();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  let reads = 0;
  const client = makeClient(harness, {
    deps: {
      now: time.now,
      timers: time.timers,
      fetch: (input, init) => {
        if (!input.endsWith("/agent/capabilities")) return fetch(input, init);
        reads += 1;
        if (reads === 2) chunk.fail = false;
        // A section the hand check does not know: the document waits for the schema.
        return Promise.resolve(Response.json({ ...served, state: { snapshots: true } }));
      },
    },
  });
  await client.start();
  const link = client.connection.getState().link;
  expect(link.name).toBe("unreachable");
  expect(link.name === "unreachable" && link.reason).toMatch(/capabilities schema could not be loaded/);

  expect(reads).toBe(1);

  await until(() => client.connection.getState().link.name === "connected", "capabilities read");
  expect(reads).toBe(2);
  expect(client.connection.getState()).toMatchObject({
    serverKind: "contract",
    serverKindFrom: "capabilities",
  });
  await client.dispose();
});
