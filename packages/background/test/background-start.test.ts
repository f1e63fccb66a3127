import { MemoryStore } from "@agui-outbox/core";
import { ThreadRegistry } from "@agui-outbox/core/internal";
import { expect, test } from "vitest";
import { chaos, ledger, startHarness } from "../../core/test/integration/harness";
import type { BackgroundRunRecord } from "../src/background-run-record";
import {
  answer,
  type FetchLike,
  heldWhen,
  isAsking,
  isFinal,
  makeRunner,
  openPageStore,
  runReaches,
} from "./background-support";

// Starting a background run: written ahead, retried with the same key and
// bytes, one run on the server whatever happens. Each run then asks before its
// tool; the test answers as the outbox would.

/** Every start request a fetch saw: its Idempotency-Key and exact body. */
interface StartRecord {
  readonly key: string | null;
  readonly body: string;
}

function recordingStarts(onStart?: (response: Response) => Promise<Response>): {
  fetch: FetchLike;
  starts: StartRecord[];
} {
  const starts: StartRecord[] = [];
  return {
    starts,
    fetch: async (input, init) => {
      const isStart = input.endsWith("/agent") && init?.method === "POST" && !isAnswer(init);
      if (isStart) {
        const headers = new Headers(init?.headers);
        starts.push({ key: headers.get("idempotency-key"), body: String(init?.body) });
      }
      const response = await fetch(input, init);
      return isStart && onStart ? onStart(response) : response;
    },
  };
}

const isAnswer = (init: RequestInit) => String(init.body).includes('"resume"');

test("the run is written ahead: a page that dies after sending the start leaves a record the next page finishes, with the same key, one run", async () => {
  const harness = await startHarness();
  const store = await openPageStore(harness);
  // The server starts the run, but the page is gone before the answer arrives.
  const first = recordingStarts(() => new Promise<Response>(() => {}));
  const page1 = makeRunner(harness, { store, threads: new ThreadRegistry(), fetch: first.fetch });
  page1.runner.activate();
  // The start's request never answers: the page dies with it in flight, so it never settles.
  void page1.runner.start({ threadId: "t-ahead", text: "please deploy to prod" }).catch(() => {});
  await expect.poll(() => first.starts.length).toBe(1);
  expect(first.starts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  const written = (await store.listBackgroundRuns("user-1")) as BackgroundRunRecord[];
  expect(written).toMatchObject([{ verdict: "starting", idempotencyKey: first.starts[0]?.key }]);
  page1.runner.dispose();
  store.close();

  const nextStore = await openPageStore(harness);
  const second = recordingStarts();
  const threads = new ThreadRegistry();
  const page2 = makeRunner(harness, { store: nextStore, threads, fetch: second.fetch });
  const [resumed] = await page2.runner.resumeAll();
  if (resumed === undefined) throw new Error("the written-ahead run was not found");
  const asking = heldWhen(page2, isAsking);
  page2.runner.activate();
  await answer(harness, threads, await asking);
  page2.time.release();
  const done = await runReaches(page2.runner, resumed.runId, isFinal);

  expect(done.verdict).toBe("completed");
  // The retry is the same start: same key, byte-identical body.
  expect(second.starts).toEqual([first.starts[0]]);
  expect(await ledger(harness)).toHaveLength(1);
  const status = (await (await fetch(`${harness.server.url}/agent/runs/${resumed.runId}`)).json()) as {
    status: string;
  };
  expect(status.status).toBe("finished");
  nextStore.close();
});

test("a start answered 503 stays written and is sent again with the same key and bytes; the run completes once", async () => {
  const harness = await startHarness();
  await chaos(harness, [{ point: "before-response", action: "status", status: 503 }]);
  const starts = recordingStarts();
  const threads = new ThreadRegistry();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads, fetch: starts.fetch });
  const { runner, time } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-start-503", text: "please deploy to prod" });
  expect(started.verdict).toBe("starting");
  await answer(harness, threads, await asking);
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);
  expect(done.verdict).toBe("completed");
  expect(starts.starts).toHaveLength(2);
  expect(starts.starts[1]).toEqual(starts.starts[0]);
  expect(await ledger(harness)).toHaveLength(1);
  expect(done.startBody).toBeNull();
});

test("two tabs starting background runs at the same moment keep both: each is polled to completion", async () => {
  const harness = await startHarness();
  const [storeA, storeB] = await Promise.all([openPageStore(harness), openPageStore(harness)]);
  const tabA = makeRunner(harness, { store: storeA, threads: new ThreadRegistry() });
  const tabB = makeRunner(harness, { store: storeB, threads: new ThreadRegistry() });
  const [a, b] = await Promise.all([
    tabA.runner.start({ threadId: "t-tab-a", text: "please deploy to prod" }),
    tabB.runner.start({ threadId: "t-tab-b", text: "please deploy to staging" }),
  ]);
  storeA.close();
  storeB.close();

  // The tab that polls (here a third page) finds both; each asks, and is answered.
  const leaderStore = await openPageStore(harness);
  const threads = new ThreadRegistry();
  const leader = makeRunner(harness, { store: leaderStore, threads });
  const resumed = await leader.runner.resumeAll();
  expect(resumed.map((run) => run.runId).sort()).toEqual([a.runId, b.runId].sort());
  leader.runner.activate();
  for (const run of [a, b]) {
    await answer(harness, threads, await runReaches(leader.runner, run.runId, isAsking));
  }
  await Promise.all([
    runReaches(leader.runner, a.runId, isFinal),
    runReaches(leader.runner, b.runId, isFinal),
  ]);
  expect(leader.runner.runs.getState().runs.map((run) => run.verdict)).toEqual(["completed", "completed"]);
  expect(await ledger(harness)).toHaveLength(2);
  leaderStore.close();
});
