import { expect, test } from "vitest";
import { SENDER_LOADS_BEFORE_WAITING } from "../../src/client/leadership";
import { importSender, type SenderModule } from "../../src/delivery/load-sender";
import { manualSignal } from "../../testing/manual-signal";
import { VirtualTime } from "../support/virtual-time";
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

/** Moves the virtual clock on by `ms` in steps of 30 s, as a page's other timers would. */
async function pass(time: VirtualTime, ms: number): Promise<void> {
  const end = time.now() + ms;
  while (time.now() < end) await new Promise<void>((resolve) => time.timers.setTimeout(resolve, 30_000));
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

test("the sending code cannot be loaded: the answer is kept, unsent and unjudged; the loads are braked and budgeted, then the browser coming back tries again, and it is sent once", async () => {
  const harness = await startHarness();
  const time = new VirtualTime({ realAboveMs: 40_000 });
  const visible = manualSignal(true);
  const log: RequestRecord[] = [];
  const { chunk, load } = flakyChunk();
  const client = makeClient(harness, {
    deps: { now: time.now, timers: time.timers, visible, fetch: recordingFetch(log), loadSender: load },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-sender");
  const entry = await client.answer({ threadId: "t-sender", interruptId: interrupt.id, approved: true });

  // One load when the lock was granted, then one per activation, after a backoff
  // each (virtual time), until the budget is spent.
  await until(() => chunk.loads >= SENDER_LOADS_BEFORE_WAITING + 1, "the budget spent");
  // Past the budget nothing is timed: ten more minutes on the clock, and no load.
  await pass(time, 10 * MINUTE);
  expect(chunk.loads).toBe(SENDER_LOADS_BEFORE_WAITING + 1);
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

  chunk.failing = false;
  visible.set(false);
  visible.set(true);
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(chunk.loads).toBe(SENDER_LOADS_BEFORE_WAITING + 2);
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
  // No timer of the page fires in this test.
  time.hold();
  await client.start();
  const interrupt = await askForDeployment(client, "t-sender-online");
  const entry = await client.answer({
    threadId: "t-sender-online",
    interruptId: interrupt.id,
    approved: true,
  });
  await until(() => client.connection.getState().senderError !== null, "the failed load");
  // The first try, at the lock, has run its course; its backoff never fires: only the
  // online event can try again.
  expect(time.pending).toBeGreaterThan(0);
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
