import { expect, test } from "vitest";
import { makeTestEntry } from "../../test/support/store-contract";
import { defaultDeps, type OutboxDeps } from "../client/deps";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import { EventType } from "../protocol";
import { ThreadRegistry } from "../thread/thread-registry";
import { AgentHttp } from "../transport/agent-http";
import { DeliveryEngine } from "./delivery-engine";

// The reads after a stream cut past RUN_STARTED on a server without the contract (no
// re-attach route, no run status): each failed hydration is classified by what it says
// and spends the budget; a refusal, or a spent budget, leaves the thread as this client
// holds it to decide on; a read that succeeds puts back the failure that sent it to read.

const REFUSED = new OutboxError(ErrorKind.runError, "Processed history must end with a `ModelRequest`.");
const OFFLINE = new OutboxError(ErrorKind.network, "The network failed.");

/** An answer whose stream was cut after RUN_STARTED, as a reload finds it; `hydrations` answer in turn. */
async function cutAfterRunStarted(hydrations: ReadonlyArray<Error | "ok">, toolResultInHand = false) {
  const store = new MemoryStore();
  const entry = makeTestEntry({
    state: EntryState.streaming,
    attempts: 1,
    everSent: true,
    toolCallId: "call-1",
    decision: { kind: "approve" },
    expiresAt: Date.now() + 3_600_000,
  });
  await store.put({ ...entry, cursor: { ...entry.cursor, acked: true, lastSeq: 1 } });
  const threads = new ThreadRegistry(() => {});
  if (toolResultInHand)
    threads.apply(entry.threadId, {
      type: EventType.TOOL_CALL_RESULT,
      messageId: "m-1",
      toolCallId: "call-1",
      content: "Deployed to prod.",
    });
  const waits: number[] = [];
  let reads = 0;
  const deps: OutboxDeps = {
    ...defaultDeps(),
    // The server has no re-attach route nor run status.
    fetch: async () => new Response("", { status: 404 }),
    // Backoffs are recorded and fire on the next task: no test waits for time.
    timers: {
      setTimeout: (callback, ms) => {
        waits.push(ms);
        return setTimeout(callback, 0);
      },
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
  };
  let done!: (entry: OutboxEntry) => void;
  const final = new Promise<OutboxEntry>((resolve) => {
    done = resolve;
  });
  const history: OutboxEntry[] = [];
  const engine = new DeliveryEngine({
    namespace: entry.namespace,
    store,
    http: new AgentHttp({
      url: "http://agent.test/agent",
      fetch: deps.fetch,
      now: deps.now,
      parseRetryAfter: () => undefined,
    }),
    threads,
    deps,
    serverKind: () => "degraded",
    kindKnown: () => true,
    hydrate: async () => {
      const answer = hydrations[Math.min(reads, hydrations.length - 1)];
      reads += 1;
      if (answer !== "ok") throw answer;
    },
    publish: (_entries, key, changed) => {
      if (key !== entry.key || !changed) return;
      history.push(changed);
      if (isFinalState(changed.state)) done(changed);
    },
    onPaused: () => {},
    stallTimeoutMs: 45_000,
    maxEventBytes: 1 << 20,
    retry: { budget: { maxAttempts: 3 } },
  });
  await engine.load();
  await engine.activate();
  const settled = await final;
  engine.deactivate();
  return { settled, reads: () => reads, waits, history };
}

test("a hydration the server refuses is read once, never again: decided on the thread in hand", async () => {
  const { settled, reads, waits } = await cutAfterRunStarted([REFUSED]);
  expect(reads()).toBe(1);
  expect(waits).toEqual([]);
  // Nothing in hand shows the result: the evidence is truly missing.
  expect(settled).toMatchObject({ state: "lost", counters: { failedReads: 1 } });
  expect(settled.lastError).toMatchObject({ kind: ErrorKind.runError });
  expect(settled.lastError?.message).toMatch(
    /^Could not read the conversation \(1 time\(s\) in a row\): Processed history/,
  );
});

test("refused, with the tool's result seen on the stream: applied, from the thread in hand", async () => {
  const { settled, reads } = await cutAfterRunStarted([REFUSED], true);
  expect(reads()).toBe(1);
  expect(settled.state).toBe("applied");
});

test("the network down: every failed read spends the budget (3), each after a backoff, then it decides", async () => {
  const { settled, reads, waits } = await cutAfterRunStarted([OFFLINE]);
  expect(reads()).toBe(3);
  expect(waits).toHaveLength(2);
  expect(settled).toMatchObject({ state: "lost", counters: { failedReads: 3 } });
  expect(settled.lastError).toMatchObject({ kind: ErrorKind.network });
});

test("a read that succeeds after failed ones puts back why the entry read, not the read failure", async () => {
  const { settled, reads, history } = await cutAfterRunStarted([OFFLINE, OFFLINE, "ok"]);
  expect(reads()).toBe(3);
  expect(history.some((entry) => /Could not read/.test(entry.lastError?.message ?? ""))).toBe(true);
  expect(settled).toMatchObject({ state: "lost", counters: { failedReads: 0 } });
  // The re-attach refused (the run is unknown here) is what sent it to read.
  expect(settled.lastError).toMatchObject({ kind: "http", status: 404 });
});
