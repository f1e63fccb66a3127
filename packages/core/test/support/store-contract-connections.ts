import { expect, test } from "vitest";
import { EntryState } from "../../src/outbox/entry";
import type { ContractContext } from "./contract-context";
import { makeTestEntry } from "./test-entry";

/** The contract's cases for a reload and a second tab (stores that can reopen). */
export function connectionCases({ open, reconnect, startReadTest }: ContractContext): void {
  test("entries and meta survive closing and reopening (a reload)", async () => {
    const store = await open();
    const queued = makeTestEntry({ state: EntryState.queued });
    const streaming = makeTestEntry({
      interruptId: "interrupt-2",
      state: EntryState.streaming,
      cursor: { runId: "run-x", lastSeq: 7, acked: true },
    });
    await store.put(queued);
    await store.put(streaming);
    await store.putMeta("alice", "background:resp-1", { token: "ct", lastSeq: 7 });
    store.close();

    const reopened = await reconnect(store);
    expect(await reopened.listByNamespace("alice")).toEqual([queued, streaming]);
    expect(await reopened.getMeta("alice", "background:resp-1")).toEqual({ token: "ct", lastSeq: 7 });
  });

  test("two connections (two tabs) committing from one revision: one wins, the other sees it", async () => {
    const tabA = await open();
    const tabB = await reconnect(tabA);
    const entry = makeTestEntry();
    await tabA.put(entry);
    const [a, b] = await Promise.all([
      tabA.commit({ ...entry, state: EntryState.applied }),
      tabB.commit({ ...entry, state: EntryState.elsewhere }),
    ]);
    expect([a, b].filter((result) => result.committed)).toHaveLength(1);
    const loser = a.committed ? b : a;
    const winner = a.committed ? a : b;
    expect(loser.committed).toBe(false);
    if (loser.committed || !winner.committed) throw new Error("unreachable");
    expect(loser.current).toEqual(winner.entry);
  });

  startReadTest(
    "two connections (two tabs): a start read's write and a commit from one revision, one wins",
    async () => {
      const tabA = await open();
      const tabB = await reconnect(tabA);
      const entry = makeTestEntry({ state: EntryState.sending, attempts: 1 });
      await tabA.put(entry);
      const [read, committed] = await Promise.all([
        tabA.readAtStart?.({
          namespace: "alice",
          metaId: "server-kind",
          // A resend only of an entry read in flight: the other tab's verdict, once seen, stops it.
          firstCommit: (_meta, [first]) =>
            first?.state === EntryState.sending ? { ...first, attempts: first.attempts + 1 } : undefined,
        }),
        tabB.commit({ ...entry, state: EntryState.elsewhere }),
      ]);
      const startWon = read?.commit?.committed === true;
      expect(startWon).not.toBe(committed.committed);
      const stored = await tabB.get(entry.key);
      expect(stored?.revision).toBe(1);
      expect(stored?.state).toBe(startWon ? EntryState.sending : EntryState.elsewhere);
      // What the start reports holding is what is stored, whichever won.
      expect(read?.entries).toEqual([stored]);
    },
  );

  test("two connections (two tabs) starting background runs at once keep both", async () => {
    const tabA = await open();
    const tabB = await reconnect(tabA);
    await Promise.all([
      tabA.putBackgroundRun("alice", "run-a", { runId: "run-a" }),
      tabB.putBackgroundRun("alice", "run-b", { runId: "run-b" }),
    ]);
    expect(await tabA.listBackgroundRuns("alice")).toHaveLength(2);
  });

  test("two connections (two tabs) answering one interrupt store one entry", async () => {
    const tabA = await open();
    const tabB = await reconnect(tabA);
    const results = await Promise.all([
      tabA.putIfAbsentForInterrupt(makeTestEntry()),
      tabB.putIfAbsentForInterrupt(makeTestEntry({ decision: { kind: "reject" } })),
    ]);
    expect(results.filter((result) => result.inserted)).toHaveLength(1);
    expect(await tabA.listByInterrupt("alice", "thread-1", "interrupt-1")).toHaveLength(1);
    expect(await tabB.listByInterrupt("alice", "thread-1", "interrupt-1")).toHaveLength(1);
  });
}
