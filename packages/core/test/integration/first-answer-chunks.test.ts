// What loads on demand stays out of an ordinary first answer: the size budgets
// (bench/size-budget.ts) count only what the page loads up front, which is honest
// only while a question asked, answered and applied reads nothing that waits for
// the AG-UI event schemas or the capabilities schema (loaded on demand,
// stream/load-event-validator.ts, transport/load-capabilities-validator.ts).
import { expect, test, vi } from "vitest";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

const loads = vi.hoisted(() => ({ eventSchemas: 0, capabilitiesSchema: 0 }));

vi.mock("../../src/stream/load-event-validator", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/stream/load-event-validator")>();
  return {
    ...original,
    loadEventValidator: () => {
      loads.eventSchemas += 1;
      return original.loadEventValidator();
    },
  };
});
vi.mock("../../src/transport/load-capabilities-validator", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/transport/load-capabilities-validator")>();
  return {
    ...original,
    loadCapabilitiesValidator: () => {
      loads.capabilitiesSchema += 1;
      return original.loadCapabilitiesValidator();
    },
  };
});

test("a question asked, answered and applied never loads the AG-UI event schemas or the capabilities schema", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-first");
  const entry = await client.answer({ threadId: "t-first", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(1);
  expect(client.connection.getState().serverKind).toBe("contract");
  expect(loads).toEqual({ eventSchemas: 0, capabilitiesSchema: 0 });
  // Not vacuous: hydrating the thread (a snapshot of its messages) does need the schemas.
  await client.thread("t-first").hydrate();
  expect(loads.eventSchemas).toBeGreaterThan(0);
  await client.dispose();
});

test("not vacuous: a capabilities document the hand check leaves to the schema loads it, and is read as the schema reads it", async () => {
  const harness = await startHarness();
  const served = await (await fetch(`${harness.server.url}/agent/capabilities`)).json();
  const client = makeClient(harness, {
    deps: {
      fetch: (input, init) =>
        input.endsWith("/agent/capabilities")
          ? Promise.resolve(Response.json({ ...served, state: { snapshots: true } }))
          : fetch(input, init),
    },
  });
  await client.start();
  expect(loads.capabilitiesSchema).toBe(1);
  expect(client.connection.getState().serverKind).toBe("contract");
  await client.dispose();
});
