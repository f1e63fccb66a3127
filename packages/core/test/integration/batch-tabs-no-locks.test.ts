import { expect, test } from "vitest";
import { InMemoryBroadcastHub } from "../../testing/in-memory-tabs";
import {
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  resumes,
  settled,
  startHarness,
} from "./harness";

// Without Web Locks (plain-http origins, old browsers) every tab sends, so two
// tabs that each answer one question of a run seal the batch at the same moment,
// each from its own answer. Each seal's follower write touches another key, so
// compare-and-set cannot stop two tabs making each answer the other's follower
// (then neither is ever sent); only a sender chosen from the stored answers alone,
// alike in every tab, can. Asserted at the server: one key, each tool once.

for (const tabs of [2, 3]) {
  test(`${tabs} tabs without Web Locks, two of them answering one question each at once: one key, both applied, each tool once`, async () => {
    const harness = await startHarness();
    const hub = new InMemoryBroadcastHub();
    const requests: RequestRecord[] = [];
    const pages = Array.from({ length: tabs }, () =>
      makeClient(harness, {
        deps: {
          locks: () => undefined,
          openChannel: (name) => hub.openChannel(name),
          fetch: recordingFetch(requests),
        },
      }),
    );
    for (const page of pages) await page.start();
    const [first, second] = pages.slice(-2) as [(typeof pages)[number], (typeof pages)[number]];
    expect(first.connection.getState().leader && second.connection.getState().leader).toBe(true);
    const thread = first.thread("t-no-locks");
    await thread.send("deploy to prod and staging");
    const [prod, staging] = thread.store.getState().pendingInterrupts;
    if (!prod || !staging) throw new Error("two interrupts expected");

    const [a, b] = await Promise.all([
      first.answer({ threadId: "t-no-locks", interruptId: prod.id, approved: true }),
      second.answer({ threadId: "t-no-locks", interruptId: staging.id, approved: true }),
    ]);

    const final = await Promise.all([settled(first, a.key), settled(first, b.key)]);
    expect(final.map((entry) => entry.state)).toEqual(["applied", "applied"]);
    // Every tab may send the sealed request (documented for tabs without Web
    // Locks), but always under the one key, and the server runs each tool once.
    expect(new Set(resumes(requests).map((request) => request.idempotencyKey))).toEqual(
      new Set([final.find((entry) => entry.batch?.sendsWith === undefined)?.key]),
    );
    expect((await ledger(harness)).map((execution) => execution.toolCallId).sort()).toEqual(
      [prod.toolCallId, staging.toolCallId].sort(),
    );
  });
}
