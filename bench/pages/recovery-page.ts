// Page side of benchmark 3 (recovery after reload). Bundled by bench/support/browser-page.ts.
import { openDB } from "idb";
import { createOutboxClient } from "../../packages/core/src/client/create-outbox-client.ts";
import type { FetchLike } from "../../packages/core/src/client/deps.ts";
import type { OutboxEntry } from "../../packages/core/src/outbox/entry.ts";

export interface RecoveryRequest {
  readonly agentUrl: string;
  readonly dbName: string;
}

/**
 * A fetch that passes every request through except resumes, which it records and
 * never sends: "the request leaving the page" is the moment the resume is handed to
 * fetch, and the server does not need to see it (nothing after that is timed).
 */
function resumeTrap(): { fetch: FetchLike; reached: Promise<number>; capabilitiesMs: () => number } {
  let capabilitiesMs = 0;
  let mark: (at: number) => void = () => {};
  const reached = new Promise<number>((resolve) => {
    mark = resolve;
  });
  return {
    reached,
    capabilitiesMs: () => capabilitiesMs,
    fetch: (input, init) => {
      if (input.endsWith("/capabilities")) {
        const asked = performance.now();
        return fetch(input, init).then(async (response) => {
          const copy = new Response(await response.arrayBuffer(), response);
          capabilitiesMs += performance.now() - asked;
          return copy;
        });
      }
      if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
      mark(performance.now());
      return new Promise<Response>(() => {});
    },
  };
}

/** Before the reload (not timed): an answer written durably whose request never left. */
async function prepare(request: RecoveryRequest): Promise<void> {
  const trap = resumeTrap();
  const client = createOutboxClient({
    url: request.agentUrl,
    namespace: "bench",
    dbName: request.dbName,
    deps: { fetch: trap.fetch },
  });
  const threadId = `t-${request.dbName}`;
  const thread = client.thread(threadId);
  await thread.send("please deploy to prod");
  const interrupt = thread.store.getState().pendingInterrupts[0];
  if (!interrupt) throw new Error("the agent did not ask for approval");
  await client.answer({ threadId, interruptId: interrupt.id, approved: true });
  // The engine writes `sending`, then calls fetch: from here the page "dies".
  await trap.reached;
  client.dispose();
}

/** Milliseconds from the start of a timed recovery; the phases are for explaining the total. */
export interface RecoveryTiming {
  /** Until the resume was handed to fetch: the figure that is compared. */
  readonly total: number;
  /** Time spent waiting for `GET /agent/capabilities`. */
  readonly capabilities: number;
  /** When storage was open and the entries loaded (`outbox.ready`). */
  readonly ready: number;
  /** When this tab became the sending tab. */
  readonly leader: number;
}

/** Timed: a new client starts on the stored answer until its resume is handed to fetch. */
async function ours(request: RecoveryRequest): Promise<RecoveryTiming> {
  const trap = resumeTrap();
  const started = performance.now();
  const client = createOutboxClient({
    url: request.agentUrl,
    namespace: "bench",
    dbName: request.dbName,
    deps: { fetch: trap.fetch },
  });
  let ready = Number.NaN;
  let leader = Number.NaN;
  const stopReady = client.outbox.subscribe((state) => {
    if (state.ready && Number.isNaN(ready)) ready = performance.now() - started;
  });
  const stopLeader = client.connection.subscribe((state) => {
    if (state.leader && Number.isNaN(leader)) leader = performance.now() - started;
  });
  void client.start();
  const reached = await trap.reached;
  stopReady();
  stopLeader();
  client.dispose();
  return { total: reached - started, capabilities: trap.capabilitiesMs(), ready, leader };
}

/**
 * Timed: the same durable work by hand. Open the database, read the one record,
 * write its next attempt back with strict durability (the SDK records the attempt
 * before the request leaves, so a crash cannot lose that it was sent), then hand
 * its request to fetch.
 */
async function byHand(request: RecoveryRequest): Promise<RecoveryTiming> {
  const trap = resumeTrap();
  const started = performance.now();
  const db = await openDB(request.dbName);
  const [entry] = (await db.getAll("entries", undefined, 1)) as OutboxEntry[];
  if (!entry) throw new Error("no stored answer");
  const tx = db.transaction("entries", "readwrite", { durability: "strict" });
  await tx.store.put({ ...entry, attempts: entry.attempts + 1, updatedAt: Date.now() });
  await tx.done;
  void trap.fetch(request.agentUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      "idempotency-key": entry.key,
    },
    body: entry.body,
  });
  const reached = await trap.reached;
  db.close();
  const total = reached - started;
  return { total, capabilities: 0, ready: total, leader: total };
}

Object.assign(globalThis, {
  benchRecovery: { prepare, ours, byHand },
  benchReady: true,
});
