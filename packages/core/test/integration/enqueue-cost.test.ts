import { expect, test, vi } from "vitest";
import { EntryState } from "../../src/outbox/entry";
import { MemoryStore } from "../../src/outbox/memory-store";
import { makeTestEntry } from "../support/test-entry";
import { askForDeployment, makeClient, startHarness, until } from "./harness";

// Counts what each per-answer scan reads: the cost of an answer, without a clock.
const scanned = vi.hoisted(() => ({ waits: 0, unshown: 0, shapes: 0 }));
vi.mock("../../src/outcome/degraded-payload", async (original) => {
  const real = await original<typeof import("../../src/outcome/degraded-payload")>();
  return {
    ...real,
    buildResumeResolution: (...args: Parameters<typeof real.buildResumeResolution>) => {
      scanned.shapes += 1;
      return real.buildResumeResolution(...args);
    },
  };
});
vi.mock("../../src/delivery/network-wait", async (original) => {
  const real = await original<typeof import("../../src/delivery/network-wait")>();
  return {
    ...real,
    waitsOnNetwork: (...args: Parameters<typeof real.waitsOnNetwork>) => {
      scanned.waits += 1;
      return real.waitsOnNetwork(...args);
    },
  };
});
vi.mock("../../src/client/unshown-questions", async (original) => {
  const real = await original<typeof import("../../src/client/unshown-questions")>();
  return {
    ...real,
    unshownQuestions: (...args: Parameters<typeof real.unshownQuestions>) => {
      scanned.unshown += args[0].length;
      return real.unshownQuestions(...args);
    },
  };
});

const STORED = 10_000;

test("an answer reads the open entries and its thread's, not every settled one", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const now = Date.now();
  for (let index = 0; index < STORED; index += 1) {
    await storage.put(
      makeTestEntry({
        key: `settled-${index}`,
        namespace: "user-1",
        threadId: `old-${index}`,
        state: EntryState.applied,
        everSent: true,
        createdAt: now - 1_000,
        updatedAt: now - 1_000,
        expiresAt: now + 3_600_000,
      }),
    );
  }
  const client = makeClient(harness, { storage });
  await client.start();
  await until(() => client.outbox.getState().entries.length === STORED, "the settled entries are held");
  const interrupt = await askForDeployment(client, "t-cost");

  scanned.waits = 0;
  scanned.unshown = 0;
  const entry = await client.answer({ threadId: "t-cost", interruptId: interrupt.id, approved: true });
  // The send starts after this task: its first write is where the checks have run.
  await until(() => client.entryFor("t-cost", interrupt.id)?.state !== "queued", "the send to begin");

  expect(entry.state).toBe("queued");
  // One open entry (the answer) for each check of the network waits; none settled.
  expect(scanned.waits).toBeLessThan(10);
  expect(scanned.unshown).toBeLessThan(10);
});

test("an answer shapes its payload once and writes in one store call, nothing read before or after", async () => {
  const harness = await startHarness();
  const memory = new MemoryStore();
  const calls: string[] = [];
  // Every store method the answer calls, by name, while it runs.
  const storage = new Proxy(memory, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const client = makeClient(harness, { storage });
  await client.start();
  const interrupt = await askForDeployment(client, "t-once");

  scanned.shapes = 0;
  calls.length = 0;
  await client.answer({ threadId: "t-once", interruptId: interrupt.id, approved: true });

  expect(calls).toEqual(["putIfAbsentForInterrupt"]);
  // The other kind's shape is built only when the first does not fit.
  expect(scanned.shapes).toBe(1);
});
