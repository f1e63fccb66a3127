// What loads on demand stays out of an ordinary first answer: the size budgets
// (bench/size-budget.ts) count only what the page loads up front, which is honest
// only while a question asked, answered and applied reads nothing that waits for
// the AG-UI event schemas (loaded on demand, stream/load-event-validator.ts).
import { expect, test, vi } from "vitest";
import { askForDeployment, ledger, makeClient, settled, startHarness } from "./harness";

const loads = vi.hoisted(() => ({ eventSchemas: 0 }));

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
test("a question asked, answered and applied never loads the AG-UI event schemas", async () => {
  const harness = await startHarness();
  const client = makeClient(harness);
  await client.start();
  const interrupt = await askForDeployment(client, "t-first");
  const entry = await client.answer({ threadId: "t-first", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(1);
  expect(loads).toEqual({ eventSchemas: 0 });
  // Not vacuous: hydrating the thread (a snapshot of its messages) does need the schemas.
  await client.thread("t-first").hydrate();
  expect(loads.eventSchemas).toBeGreaterThan(0);
  await client.dispose();
});
