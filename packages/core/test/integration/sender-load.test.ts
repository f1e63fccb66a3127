import { expect, test } from "vitest";
import { VirtualTime } from "../../src/background/virtual-time.test-util";
import { importSender, type SenderModule } from "../../src/delivery/load-sender";
import { manualSignal } from "../../src/testing/manual-signal";
import {
  askForDeployment,
  entryOf,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  resumes,
  settled,
  startHarness,
  until,
} from "./harness";

// The code that sends is a chunk the sending tab loads when it takes the lock
// (delivery/load-sender.ts). While it cannot be fetched, an answer is kept as it
// is: durable, unsent, unjudged, with the failure on the connection state; the
// load is tried again with a backoff, and at once when the browser is back
// online. What counts is asserted at the server: what it received, and the ledger.

const MINUTE = 60_000;

/** Resolves once `count` stops changing for 100 ms of real time. */
async function quiet(count: () => number): Promise<void> {
  for (let last = -1; last !== count(); ) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A chunk load that fails (as a browser's does when the chunk cannot be fetched) until `fixed`. */
function flakyChunk() {
  const chunk = { failing: true, loads: 0 };
  const load = (): Promise<SenderModule> => {
    chunk.loads += 1;
    return chunk.failing
      ? Promise.reject(new TypeError("Failed to fetch dynamically imported module: /assets/sender.js"))
      : importSender();
  };
  return { chunk, load };
}

test("the sending code cannot be loaded: the answer is kept, unsent and unjudged, the loads are braked; once it loads, sent once and applied", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const log: RequestRecord[] = [];
  const { chunk, load } = flakyChunk();
  const client = makeClient(harness, {
    deps: { now: time.now, timers: time.timers, fetch: recordingFetch(log), loadSender: load },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-sender");
  const entry = await client.answer({ threadId: "t-sender", interruptId: interrupt.id, approved: true });

  // Counted against the clock read with them: virtual time runs ahead of the real-time poll.
  const from = time.now();
  const loadsBefore = chunk.loads;
  await until(() => time.now() - from >= 10 * MINUTE, "ten virtual minutes");
  const loads = chunk.loads - loadsBefore;
  const minutes = (time.now() - from) / MINUTE;
  const waiting = entryOf(client, entry.key);
  expect(waiting.state).toBe("queued");
  expect(waiting.attempts).toBe(0);
  expect(waiting.everSent).toBe(false);
  expect(resumes(log)).toHaveLength(0);
  expect(await ledger(harness)).toHaveLength(0);
  const connection = client.connection.getState();
  expect(connection.leader).toBe(true);
  expect(connection.senderError).toMatchObject({ kind: "sender_unavailable" });
  expect(connection.senderError?.cause).toBeInstanceOf(TypeError);
  // Tried again, with a backoff (full jitter, capped at 30 s: one try per 15 s on average).
  expect(loads).toBeGreaterThan(2);
  expect(loads).toBeLessThanOrEqual(8 * minutes);

  chunk.failing = false;
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(resumes(log).map((request) => request.idempotencyKey)).toEqual([entry.key]);
  expect(await ledger(harness)).toHaveLength(1);
  expect(client.connection.getState().senderError).toBeNull();
});

test("the sending code loads again the moment the browser is back online, not after its backoff", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const online = manualSignal(true);
  const log: RequestRecord[] = [];
  const { chunk, load } = flakyChunk();
  const client = makeClient(harness, {
    deps: { now: time.now, timers: time.timers, online, fetch: recordingFetch(log), loadSender: load },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-sender-online");
  const entry = await client.answer({
    threadId: "t-sender-online",
    interruptId: interrupt.id,
    approved: true,
  });
  await until(() => client.connection.getState().senderError !== null, "the failed load");

  // No timer fires from here on: only the online event can try again, once a
  // try that a timer began before the hold has run its course.
  time.hold();
  await quiet(() => chunk.loads);
  online.set(false);
  chunk.failing = false;
  const before = chunk.loads;
  online.set(true);
  await until(() => chunk.loads > before, "a load on the online event");
  await until(() => client.connection.getState().senderError === null, "the load's success");
  time.release();

  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(resumes(log).map((request) => request.idempotencyKey)).toEqual([entry.key]);
  expect(await ledger(harness)).toHaveLength(1);
});
