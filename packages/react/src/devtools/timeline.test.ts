import type { OutboxState } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { createStore } from "zustand/vanilla";
import { entry, outboxState } from "./test-entries.test-util";
import { recordTimelines } from "./timeline";

const busy = { kind: "http_status", code: "SERVER_BUSY", message: "Busy", status: 503 } as const;

test("an entry seen from its answer through a retry to applied: one step per change, in order", () => {
  const outbox = createStore<OutboxState>(() => outboxState([]));
  const timelines = recordTimelines(outbox);
  const queued = entry();
  outbox.setState(outboxState([queued]));
  const sending = { ...queued, state: "sending" as const, attempts: 1, everSent: true, updatedAt: 1_100 };
  outbox.setState(outboxState([sending]));
  outbox.setState(
    outboxState([
      {
        ...sending,
        state: "retry_wait",
        nextAttemptAt: 3_000,
        lastError: busy,
        rule: "http-transient",
        updatedAt: 1_200,
      },
    ]),
  );
  // A change that is no transition (the cursor moved) adds no step.
  const again = { ...sending, attempts: 2, lastError: busy, rule: "http-transient", updatedAt: 3_000 };
  outbox.setState(outboxState([again]));
  outbox.setState(outboxState([{ ...again, cursor: { runId: "run-1", lastSeq: 4, acked: true } }]));
  outbox.setState(
    outboxState([{ ...again, state: "applied", lastError: null, rule: "run-finished", updatedAt: 3_500 }]),
  );

  const steps = timelines.getState().get("key-1") ?? [];
  expect(steps.map((step) => [step.at, step.what, step.attempts, step.rule, step.source])).toEqual([
    [1_000, "answered", 0, null, "seen"],
    [1_000, "queued", 0, null, "seen"],
    [1_100, "sending", 1, null, "seen"],
    [1_200, "retry_wait", 1, "http-transient", "seen"],
    [3_000, "sending", 2, "http-transient", "seen"],
    [3_500, "applied", 2, "run-finished", "seen"],
  ]);
  expect(steps[3]).toMatchObject({ nextAttemptAt: 3_000, error: busy });
});

test("an entry already there when recording starts is rebuilt from its own fields, marked stored", () => {
  const stored = entry({
    state: "retry_wait",
    attempts: 1,
    counters: { serverFailures: 1, reattachesWithoutProgress: 0, budgetChecks: 0, firstSentAt: 1_050 },
    updatedAt: 1_200,
  });
  const outbox = createStore<OutboxState>(() => outboxState([stored]));
  const steps = recordTimelines(outbox).getState().get("key-1") ?? [];
  expect(steps.map((step) => [step.at, step.what, step.source])).toEqual([
    [1_000, "answered", "stored"],
    [1_050, "first sent", "stored"],
    [1_200, "retry_wait", "stored"],
  ]);
});

test("a removed entry leaves the timelines; stop ends the recording", () => {
  const outbox = createStore<OutboxState>(() => outboxState([entry()]));
  const timelines = recordTimelines(outbox);
  outbox.setState(outboxState([]));
  expect(timelines.getState().has("key-1")).toBe(false);
  timelines.stop();
  outbox.setState(outboxState([entry()]));
  expect(timelines.getState().size).toBe(0);
});
