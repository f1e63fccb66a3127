import { expect, test } from "vitest";
import { EntryState, isFinalState } from "../../src/outbox/entry";
import type { ContractContext } from "./contract-context";
import { keysOf, makeTestEntry, rejection } from "./test-entry";

/** The contract's cases for reading, inserting, deleting and clearing entries. */
export function entryCases({ open }: ContractContext): void {
  test("put then get returns an equal entry; an unknown key returns undefined", async () => {
    const store = await open();
    const entry = makeTestEntry();
    await store.put(entry);
    expect(await store.get(entry.key)).toEqual(entry);
    expect(await store.get("no-such-key")).toBeUndefined();
  });

  test("put overwrites the entry with the same key", async () => {
    const store = await open();
    const entry = makeTestEntry();
    await store.put(entry);
    const sent = { ...entry, state: EntryState.sending, attempts: 1, everSent: true };
    await store.put(sent);
    expect(await store.get(entry.key)).toEqual(sent);
    expect(keysOf(await store.listByNamespace(entry.namespace))).toEqual([entry.key]);
  });

  test("listByNamespace lists one namespace, oldest first, and never another's entries", async () => {
    const store = await open();
    const newer = makeTestEntry({ namespace: "alice", createdAt: 20 });
    const older = makeTestEntry({ namespace: "alice", createdAt: 10 });
    const bobs = makeTestEntry({ namespace: "bob", createdAt: 5 });
    for (const entry of [newer, bobs, older]) await store.put(entry);
    expect(keysOf(await store.listByNamespace("alice"))).toEqual([older.key, newer.key]);
    expect(keysOf(await store.listByNamespace("bob"))).toEqual([bobs.key]);
    expect(await store.listByNamespace("carol")).toEqual([]);
  });

  test("listByNamespace splits a namespace into open and settled entries, each oldest first", async () => {
    const store = await open();
    const byState = Object.values(EntryState).map((state, index) =>
      makeTestEntry({ state, createdAt: 100 - index, interruptId: `interrupt-${state}` }),
    );
    for (const entry of [...byState, makeTestEntry({ namespace: "bob" })]) await store.put(entry);
    const oldestFirst = [...byState].reverse();
    const settled = new Set<string>([EntryState.applied, EntryState.elsewhere, EntryState.expired]);
    expect(keysOf(await store.listByNamespace("alice", "open"))).toEqual(
      keysOf(oldestFirst.filter((entry) => !settled.has(entry.state))),
    );
    expect(keysOf(await store.listByNamespace("alice", "settled"))).toEqual(
      keysOf(oldestFirst.filter((entry) => settled.has(entry.state))),
    );
    expect(keysOf(await store.listByNamespace("alice", "all"))).toEqual(keysOf(oldestFirst));
    // A committed verdict moves an entry from one list to the other.
    const queued = byState.find((entry) => entry.state === EntryState.queued);
    if (queued === undefined) throw new Error("unreachable");
    await store.commit({ ...queued, state: EntryState.applied });
    expect(keysOf(await store.listByNamespace("alice", "settled"))).toContain(queued.key);
    expect(keysOf(await store.listByNamespace("alice", "open"))).not.toContain(queued.key);
  });

  test("listByInterrupt matches namespace, thread and interrupt exactly", async () => {
    const store = await open();
    const first = makeTestEntry({ state: EntryState.needsUser });
    const second = makeTestEntry();
    const others = [
      makeTestEntry({ interruptId: "interrupt-2" }),
      makeTestEntry({ threadId: "thread-2" }),
      makeTestEntry({ namespace: "bob" }),
    ];
    for (const entry of [second, ...others, first]) await store.put(entry);
    expect(keysOf(await store.listByInterrupt("alice", "thread-1", "interrupt-1"))).toEqual([
      first.key,
      second.key,
    ]);
    expect(await store.listByInterrupt("carol", "thread-1", "interrupt-1")).toEqual([]);
  });

  test("delete refuses every non-final entry and leaves it intact", async () => {
    const store = await open();
    const nonFinal = Object.values(EntryState).filter((state) => !isFinalState(state));
    expect(nonFinal.length).toBeGreaterThan(0);
    for (const state of nonFinal) {
      const entry = makeTestEntry({ state });
      await store.put(entry);
      const error = await rejection(store.delete(entry.key));
      expect(error.kind).toBe("storage_failed");
      expect(error.message).toContain("never delete before a final verdict");
      expect(await store.get(entry.key)).toEqual(entry);
    }
  });

  test("delete removes an entry in any final state and reports a missing key", async () => {
    const store = await open();
    const finals = Object.values(EntryState).filter(isFinalState);
    expect(finals.length).toBeGreaterThan(0);
    for (const state of finals) {
      const entry = makeTestEntry({ state });
      await store.put(entry);
      expect(await store.delete(entry.key)).toBe(true);
      expect(await store.get(entry.key)).toBeUndefined();
      expect(await store.delete(entry.key)).toBe(false);
    }
  });

  test("clear(namespace) wipes that namespace's entries, final or not, and its meta; nothing else", async () => {
    const store = await open();
    const alices = [
      makeTestEntry({ state: EntryState.streaming }),
      makeTestEntry({ state: EntryState.applied }),
    ];
    const bobs = makeTestEntry({ namespace: "bob", state: EntryState.queued });
    for (const entry of [...alices, bobs]) await store.put(entry);
    await store.putMeta("alice", "cursor:thread-1", { runId: "r", lastSeq: 4 });
    await store.putMeta("bob", "cursor:thread-1", { runId: "r", lastSeq: 9 });

    await store.clear("alice");

    expect(await store.listByNamespace("alice")).toEqual([]);
    for (const entry of alices) expect(await store.get(entry.key)).toBeUndefined();
    expect(await store.getMeta("alice", "cursor:thread-1")).toBeUndefined();
    expect(await store.listByNamespace("bob")).toEqual([bobs]);
    expect(await store.getMeta("bob", "cursor:thread-1")).toEqual({ runId: "r", lastSeq: 9 });
  });

  test("putIfAbsentForInterrupt inserts the first answer and returns it to a double click", async () => {
    const store = await open();
    const first = makeTestEntry();
    const inserted = await store.putIfAbsentForInterrupt(first);
    expect(inserted).toEqual({ inserted: true, entry: first });

    // The second click may carry a different decision: the store returns the
    // existing entry either way, and the caller compares decisions.
    const second = makeTestEntry({ decision: { kind: "reject", reason: "changed my mind" } });
    const result = await store.putIfAbsentForInterrupt(second);
    expect(result).toEqual({ inserted: false, existing: first });
    expect(await store.get(second.key)).toBeUndefined();
    expect(keysOf(await store.listByInterrupt("alice", "thread-1", "interrupt-1"))).toEqual([first.key]);
  });

  test("putIfAbsentForInterrupt inserts exactly once under concurrent calls", async () => {
    const store = await open();
    const a = makeTestEntry();
    const b = makeTestEntry();
    const results = await Promise.all([store.putIfAbsentForInterrupt(a), store.putIfAbsentForInterrupt(b)]);
    const winners = results.filter((result) => result.inserted);
    expect(winners).toHaveLength(1);
    const stored = await store.listByInterrupt("alice", "thread-1", "interrupt-1");
    expect(stored).toHaveLength(1);
    for (const result of results) {
      expect(result.inserted ? result.entry.key : result.existing.key).toBe(stored[0]?.key);
    }
  });

  test("putIfAbsentForInterrupt is scoped to namespace, thread and interrupt", async () => {
    const store = await open();
    await store.putIfAbsentForInterrupt(makeTestEntry());
    for (const entry of [
      makeTestEntry({ namespace: "bob" }),
      makeTestEntry({ threadId: "thread-2" }),
      makeTestEntry({ interruptId: "interrupt-2" }),
    ]) {
      expect((await store.putIfAbsentForInterrupt(entry)).inserted).toBe(true);
    }
  });

  test("a needs_user entry is superseded by a new answer; the caller can widen that", async () => {
    const store = await open();
    const stale = makeTestEntry({ state: EntryState.needsUser });
    await store.put(stale);
    const retry = makeTestEntry();
    expect(await store.putIfAbsentForInterrupt(retry)).toEqual({ inserted: true, entry: retry });
    expect(keysOf(await store.listByInterrupt("alice", "thread-1", "interrupt-1"))).toEqual([
      stale.key,
      retry.key,
    ]);

    const lost = makeTestEntry({ interruptId: "interrupt-9", state: EntryState.lost });
    await store.put(lost);
    const blocked = await store.putIfAbsentForInterrupt(makeTestEntry({ interruptId: "interrupt-9" }));
    expect(blocked).toEqual({ inserted: false, existing: lost });
    const again = makeTestEntry({ interruptId: "interrupt-9" });
    const widened = await store.putIfAbsentForInterrupt(again, {
      isSuperseded: (existing) => existing.state === EntryState.lost,
    });
    expect(widened).toEqual({ inserted: true, entry: again });
  });

  test("putIfAbsentForInterrupt never overwrites another answer that reuses the key", async () => {
    const store = await open();
    const original = makeTestEntry({ interruptId: "interrupt-1" });
    await store.put(original);
    const clash = makeTestEntry({ key: original.key, interruptId: "interrupt-2" });
    const error = await rejection(store.putIfAbsentForInterrupt(clash));
    expect(error.kind).toBe("storage_failed");
    expect(await store.get(original.key)).toEqual(original);
    expect(await store.listByInterrupt("alice", "thread-1", "interrupt-2")).toEqual([]);
  });

  test("commit writes only over the revision the writer read, and bumps it", async () => {
    const store = await open();
    const entry = makeTestEntry();
    await store.put(entry);
    const read = await store.get(entry.key);
    if (read === undefined) throw new Error("missing entry");
    expect(read.revision).toBeUndefined();

    const sending = await store.commit({ ...read, state: EntryState.sending, attempts: 1 });
    expect(sending).toEqual({
      committed: true,
      entry: { ...entry, state: EntryState.sending, attempts: 1, revision: 1 },
    });
    expect(await store.get(entry.key)).toEqual({
      ...entry,
      state: EntryState.sending,
      attempts: 1,
      revision: 1,
    });

    // A writer that read revision 0 (an old leader's queued commit) is refused and sees what is stored.
    const stale = await store.commit({ ...read, state: EntryState.retryWait });
    expect(stale).toEqual({
      committed: false,
      current: { ...entry, state: EntryState.sending, attempts: 1, revision: 1 },
    });
    // A writer from the future is refused as well: only the exact revision counts.
    const ahead = await store.commit({ ...read, state: EntryState.applied, revision: 7 });
    expect(ahead.committed).toBe(false);

    if (!sending.committed) throw new Error("unreachable");
    const applied = await store.commit({ ...sending.entry, state: EntryState.applied });
    expect(applied.committed && applied.entry.revision).toBe(2);
    expect((await store.get(entry.key))?.state).toBe(EntryState.applied);
  });

  test("commit never brings back an entry that is gone (discarded or wiped by clear)", async () => {
    const store = await open();
    const entry = makeTestEntry({ state: EntryState.streaming });
    await store.put(entry);
    await store.clear(entry.namespace);
    expect(await store.commit({ ...entry, state: EntryState.applied })).toEqual({
      committed: false,
      current: undefined,
    });
    expect(await store.get(entry.key)).toBeUndefined();
    expect(await store.listByNamespace(entry.namespace)).toEqual([]);
  });
}
