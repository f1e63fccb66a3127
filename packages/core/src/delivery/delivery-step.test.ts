import { expect, test } from "vitest";
import { NO_COUNTERS, type OutboxEntry } from "../outbox/entry";
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
  const stuck = { ...acked, counters: { ...NO_COUNTERS, reattachesWithoutProgress: 2 } };
  const step = deliveryStep(stuck, { type: "stream-ended" }, context);
  expect(step.decision).toMatchObject({ type: "wait", verdict: { kind: "retry" } });
  expect(step.counters.reattachesWithoutProgress).toBe(0);
});

test("only the server's own failures count against the budget: a network that is down never spends it", () => {
  const budget = { ...context, retry: { budget: { maxAttempts: 1 } } };
  const offline = deliveryStep(sending(), { type: "network-error" }, budget);
  expect(offline.decision.type).toBe("wait");
  expect(offline.counters.serverFailures).toBe(0);
});

test("a spent budget checks the thread once, then stalls (not final) instead of ending the entry", () => {
  const budget = { ...context, retry: { budget: { maxAttempts: 1 } } };
  const failure = { type: "http-status", status: 503, message: "unavailable" } as const;
  const first = deliveryStep(sending(), failure, budget);
  // The thread is read because of the server's failure: it stays the entry's last error meanwhile.
  expect(first.decision).toEqual({
    type: "hydrate",
    cause: { kind: "http", status: 503, message: "unavailable" },
  });
  expect(first.counters).toMatchObject({ serverFailures: 1, budgetChecks: 1 });
  const checked = { ...sending(), counters: first.counters };
  const second = deliveryStep(checked, failure, budget);
  expect(second.decision).toMatchObject({ type: "stall", error: { kind: "retry_budget_exhausted" } });
});

test("an unknown event after the claim: the status read goes with invalid_event as its cause", () => {
  const acked = reduceEntry(sending(), { type: "claim-acked", runId: "r1", seq: 1, at: 0 });
  const signal = {
    type: "invalid-stream",
    kind: "invalid_event",
    message: "Unknown event type TELEPORT",
  } as const;
  expect(deliveryStep(acked, signal, context).decision).toEqual({
    type: "status",
    cause: { kind: "invalid_event", message: "Unknown event type TELEPORT" },
  });
});

test("APPROVAL_TOOL_UNAVAILABLE after RUN_STARTED each time: counted as nothing ran, then a stall that says so", () => {
  const degraded = { ...context, serverKind: "degraded" as const, retry: { budget: { maxAttempts: 2 } } };
  const unavailable = { type: "run-error", code: "APPROVAL_TOOL_UNAVAILABLE", message: "down" } as const;
  let entry = reduceEntry(sending(), { type: "claim-acked", runId: "r1", seq: 1, at: 0 });
  const first = deliveryStep(entry, unavailable, degraded);
  expect(first.decision.type).toBe("wait");
  expect(first.counters.nothingRan).toBe(1);
  // The second attempt, answered the same: the budget is spent, the thread is checked.
  entry = { ...entry, attempts: 2, counters: first.counters };
  const second = deliveryStep(entry, unavailable, degraded);
  expect(second.decision.type).toBe("hydrate");
  expect(second.counters.nothingRan).toBe(2);
  // The thread shows the question open: every attempt said nothing ran, so it is sent again.
  entry = { ...entry, counters: second.counters };
  const open = { type: "hydrated", toolEvidence: "none", interruptStillOpen: true } as const;
  expect(deliveryStep(entry, open, degraded).decision).toMatchObject({
    type: "wait",
    verdict: { rule: "hydrated-approve-nothing-ran" },
  });
  entry = { ...entry, attempts: 3 };
  const third = deliveryStep(entry, unavailable, degraded);
  expect(third.decision).toMatchObject({ type: "stall", reason: expect.stringMatching(/nothing ran/) });
});

test("an answer's signals are classified in one place: delivery-step.ts", async () => {
  const { readdirSync, readFileSync } = await import("node:fs");
  const src = new URL("..", import.meta.url);
  const callers = ["client", "delivery", "transport", "answer", "approval"].flatMap((dir) =>
    readdirSync(new URL(`${dir}/`, src))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .filter((name) => readFileSync(new URL(`${dir}/${name}`, src), "utf8").includes("classifyOutcome("))
      .map((name) => `${dir}/${name}`),
  );
  expect(callers).toEqual(["delivery/delivery-step.ts"]);
});
