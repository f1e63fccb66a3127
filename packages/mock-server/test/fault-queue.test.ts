import { expect, test } from "vitest";
import { ChaosRequestSchema, FaultSchema } from "../src/chaos/fault";
import { FaultQueue } from "../src/chaos/fault-queue";

const fault = (input: Record<string, unknown>) => FaultSchema.parse(input);

test("a fault fires `times` times, in arrival order, then is gone", () => {
  const queue = new FaultQueue();
  queue.add([
    fault({ point: "after-tool", action: "fail", times: 2 }),
    fault({ point: "after-tool", action: "crash" }),
  ]);
  expect(queue.take("after-tool", "t")?.action).toBe("fail");
  expect(queue.list()).toEqual([
    { point: "after-tool", action: "fail", times: 1 },
    { point: "after-tool", action: "crash", times: 1 },
  ]);
  expect(queue.take("after-tool", "t")?.action).toBe("fail");
  expect(queue.take("after-tool", "t")?.action).toBe("crash");
  expect(queue.take("after-tool", "t")).toBeUndefined();
});

test("a thread filter and an action filter leave other faults armed", () => {
  const queue = new FaultQueue();
  queue.add([
    fault({ point: "before-claim", action: "fail", threadId: "a" }),
    fault({ point: "before-claim", action: "delay", delayMs: 5 }),
  ]);
  expect(queue.take("before-claim", "b", (f) => f.action !== "delay")).toBeUndefined();
  expect(queue.take("before-claim", "b")?.action).toBe("delay");
  expect(queue.take("before-claim", "a")?.threadId).toBe("a");
  expect(queue.list()).toEqual([]);
});

test("the schema refuses combinations that cannot fire", () => {
  for (const bad of [
    { point: "after-tool", action: "status" },
    { point: "mid-stream", action: "fail" },
    { point: "before-response", action: "fail" },
    { point: "after-claim", action: "drop" },
    { point: "after-tool", action: "fail", times: 0 },
    { point: "after-tool", action: "fail", surprise: true },
  ]) {
    expect(FaultSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  }
  expect(ChaosRequestSchema.safeParse({ faults: [] }).success).toBe(false);
  expect(FaultSchema.parse({ point: "background-submit", action: "status", status: 429 }).times).toBe(1);
});
