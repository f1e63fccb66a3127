import { expect, test } from "vitest";
import type { OutboxEntry } from "../outbox/entry";
import { createEntry, reduceEntry } from "../outbox/reducer";
import { type DeliveryStepContext, deliveryStep } from "./delivery-step";

function sending(): OutboxEntry {
  const queued = createEntry({
    key: "k1",
    namespace: "ns",
    threadId: "t1",
    interruptId: "i1",
    runId: "r1",
    body: "{}",
    decision: { kind: "approve" },
    now: 0,
  });
  return reduceEntry(queued, { type: "attempt-started", at: 0 });
}

const context: DeliveryStepContext = {
  serverKind: "contract",
  now: 1_000,
  retry: {},
  jitter: 0.5,
  serverRetryMs: undefined,
  maxReattachesWithoutProgress: 2,
  counters: { reattachesWithoutProgress: 0, budgetSpent: false },
};

test("a finished run settles as applied", () => {
  const step = deliveryStep(sending(), { type: "run-finished", replayed: false }, context);
  expect(step.decision).toMatchObject({ type: "settle", verdict: { kind: "applied" } });
});

test("a network failure waits a full-jitter backoff: the decision is data, with its time", () => {
  const step = deliveryStep(sending(), { type: "network-error" }, context);
  // attempt 1, base 1 s, jitter 0.5 → 500 ms after now.
  expect(step.decision).toMatchObject({ type: "wait", at: 1_500, verdict: { kind: "retry" } });
});

test("a stream cut after the claim re-attaches, until re-attaching stops making progress", () => {
  const acked = reduceEntry(sending(), { type: "claim-acked", runId: "r1", seq: 1, at: 0 });
  expect(deliveryStep(acked, { type: "stream-ended" }, context).decision).toEqual({ type: "reattach" });
  const stuck = { ...context, counters: { reattachesWithoutProgress: 2, budgetSpent: false } };
  expect(deliveryStep(acked, { type: "stream-ended" }, stuck).decision).toMatchObject({
    type: "wait",
    verdict: { kind: "retry" },
  });
});

test("a spent budget checks the thread once before asking the person", () => {
  const spent = { ...context, retry: { budget: { maxAttempts: 1 } } };
  const first = deliveryStep(sending(), { type: "network-error" }, spent);
  expect(first.decision).toEqual({ type: "hydrate" });
  expect(first.counters.budgetSpent).toBe(true);
  const second = deliveryStep(sending(), { type: "network-error" }, { ...spent, counters: first.counters });
  expect(second.decision).toMatchObject({ type: "settle", verdict: { kind: "needs_user" } });
});
