import { expect, test } from "vitest";
import { EntryState } from "../../src/outbox/entry";
import type { ContractContext } from "./contract-context";
import { keysOf, makeTestEntry, rejection } from "./test-entry";

/** The contract's cases for compare-and-set, the start read, metadata and bad input. */
export function commitCases({ open, startReadTest }: ContractContext): void {
  test("concurrent commits from one revision: exactly one wins", async () => {
    const store = await open();
    const entry = makeTestEntry();
    await store.put(entry);
    const results = await Promise.all([
      store.commit({ ...entry, state: EntryState.applied }),
      store.commit({ ...entry, state: EntryState.lost }),
    ]);
    expect(results.filter((result) => result.committed)).toHaveLength(1);
    const stored = await store.get(entry.key);
    expect(stored?.revision).toBe(1);
    const winner = results.find((result) => result.committed);
    expect(winner?.committed && winner.entry.state).toBe(stored?.state);
  });

  startReadTest(
    "readAtStart reads the meta and the namespace's entries and writes the one it derives, revision bumped",
    async () => {
      const store = await open();
      const requireStartRead = store.readAtStart?.bind(store);
      if (requireStartRead === undefined) throw new Error("every store of the library has readAtStart");
      const newer = makeTestEntry({ createdAt: 20, state: EntryState.queued });
      const older = makeTestEntry({ createdAt: 10, state: EntryState.sending, attempts: 1 });
      const bobs = makeTestEntry({ namespace: "bob", createdAt: 5 });
      for (const entry of [newer, bobs, older]) await store.put(entry);
      await store.putMeta("alice", "server-kind", "contract");
      await store.putMeta("bob", "server-kind", "degraded");

      const seen: { meta: unknown; keys: string[] }[] = [];
      const result = await requireStartRead({
        namespace: "alice",
        metaId: "server-kind",
        firstCommit: (meta, entries) => {
          seen.push({ meta, keys: keysOf(entries) });
          const first = entries[0];
          return first && { ...first, attempts: first.attempts + 1, everSent: true };
        },
      });
      expect(seen).toEqual([{ meta: "contract", keys: [older.key, newer.key] }]);
      const written = { ...older, attempts: 2, everSent: true, revision: 1 };
      expect(result).toEqual({
        meta: "contract",
        entries: [written, newer],
        commit: { committed: true, entry: written },
      });
      expect(await store.get(older.key)).toEqual(written);
      expect(await store.get(newer.key)).toEqual(newer);
      expect(await store.listByNamespace("bob")).toEqual([bobs]);
    },
  );

  startReadTest(
    "readAtStart writes nothing when asked for nothing, and reads an absent meta as undefined",
    async () => {
      const store = await open();
      const entry = makeTestEntry();
      await store.put(entry);
      const result = await store.readAtStart?.({
        namespace: "alice",
        metaId: "server-kind",
        firstCommit: () => undefined,
      });
      expect(result).toEqual({ meta: undefined, entries: [entry] });
      expect(await store.get(entry.key)).toEqual(entry);
      expect(
        await store.readAtStart?.({ namespace: "carol", metaId: "x", firstCommit: () => undefined }),
      ).toEqual({ meta: undefined, entries: [] });
    },
  );

  startReadTest("readAtStart reads only the entries without a settled verdict", async () => {
    const store = await open();
    const applied = makeTestEntry({ state: EntryState.applied, interruptId: "interrupt-a" });
    const lost = makeTestEntry({ state: EntryState.lost, interruptId: "interrupt-l" });
    const queued = makeTestEntry();
    for (const entry of [applied, lost, queued]) await store.put(entry);
    const seen: string[][] = [];
    const result = await store.readAtStart?.({
      namespace: "alice",
      metaId: "server-kind",
      firstCommit: (_meta, entries) => {
        seen.push(keysOf(entries));
        return undefined;
      },
    });
    expect(keysOf(result?.entries ?? [])).toEqual([lost.key, queued.key]);
    expect(seen).toEqual([[lost.key, queued.key]]);
  });

  startReadTest(
    "readAtStart's write is compare-and-set: a stale revision or a missing entry is refused, nothing written",
    async () => {
      const store = await open();
      const entry = makeTestEntry();
      await store.put(entry);
      const sent = await store.commit({ ...entry, state: EntryState.sending, attempts: 1 });
      if (!sent.committed) throw new Error("unreachable");
      // Derived from a copy older than what is stored (revision 0, stored 1).
      const stale = await store.readAtStart?.({
        namespace: "alice",
        metaId: "server-kind",
        firstCommit: () => ({ ...entry, state: EntryState.lost }),
      });
      expect(stale?.commit).toEqual({ committed: false, current: sent.entry });
      expect(stale?.entries).toEqual([sent.entry]);
      expect(await store.get(entry.key)).toEqual(sent.entry);
      // An entry that is not stored is never brought in by the start's write.
      const ghost = makeTestEntry();
      const missing = await store.readAtStart?.({
        namespace: "alice",
        metaId: "server-kind",
        firstCommit: () => ghost,
      });
      expect(missing?.commit).toEqual({ committed: false, current: undefined });
      expect(await store.get(ghost.key)).toBeUndefined();
    },
  );

  startReadTest("readAtStart refuses bad input with a storage error and writes nothing", async () => {
    const store = await open();
    const entry = makeTestEntry();
    await store.put(entry);
    const secret = "do-not-log-this-secret";
    const error = await rejection(
      store.readAtStart?.({
        namespace: "alice",
        metaId: "server-kind",
        firstCommit: (_meta, [first]) =>
          first && {
            ...first,
            decision: { kind: "approve", editedArgs: { note: secret, callback: () => secret } },
          },
      }) ?? Promise.resolve(),
    );
    expect(error.kind).toBe("storage_failed");
    expect(error.message).not.toContain(secret);
    expect(await store.get(entry.key)).toEqual(entry);
    expect(
      (
        await rejection(
          store.readAtStart?.({ namespace: "", metaId: "x", firstCommit: () => undefined }) ??
            Promise.resolve(),
        )
      ).kind,
    ).toBe("storage_failed");
    store.close();
    const closed = await rejection(
      store.readAtStart?.({ namespace: "alice", metaId: "x", firstCommit: () => undefined }) ??
        Promise.resolve(),
    );
    expect(closed.kind).toBe("storage_unavailable");
  });

  test("background runs: one row per [namespace, runId], listed per namespace, wiped by clear", async () => {
    const store = await open();
    await Promise.all([
      store.putBackgroundRun("alice", "run-a", { runId: "run-a", state: "starting" }),
      store.putBackgroundRun("alice", "run-b", { runId: "run-b", state: "starting" }),
      store.putBackgroundRun("bob", "run-a", { runId: "run-a", owner: "bob" }),
    ]);
    const byRun = (records: unknown[]) =>
      [...records].sort((a, b) => ((a as { runId: string }).runId < (b as { runId: string }).runId ? -1 : 1));
    expect(byRun(await store.listBackgroundRuns("alice"))).toEqual([
      { runId: "run-a", state: "starting" },
      { runId: "run-b", state: "starting" },
    ]);
    await store.putBackgroundRun("alice", "run-a", { runId: "run-a", state: "polling" });
    await store.deleteBackgroundRun("alice", "run-b");
    expect(await store.listBackgroundRuns("alice")).toEqual([{ runId: "run-a", state: "polling" }]);
    await store.clear("alice");
    expect(await store.listBackgroundRuns("alice")).toEqual([]);
    expect(await store.listBackgroundRuns("bob")).toEqual([{ runId: "run-a", owner: "bob" }]);
  });

  test("callers get copies: mutating inputs or results never changes what is stored", async () => {
    const store = await open();
    const entry = makeTestEntry();
    const input = structuredClone(entry);
    await store.put(input);
    Object.assign(input, { state: EntryState.applied });
    const got = await store.get(entry.key);
    expect(got).toEqual(entry);
    if (got === undefined) throw new Error("missing entry");
    Object.assign(got, { state: EntryState.lost });
    Object.assign(got.cursor, { lastSeq: 99 });
    const [listed] = await store.listByNamespace("alice");
    if (listed === undefined) throw new Error("missing entry");
    Object.assign(listed, { body: "changed" });
    expect(await store.get(entry.key)).toEqual(entry);

    const fresh = makeTestEntry({ interruptId: "interrupt-copy" });
    const result = await store.putIfAbsentForInterrupt(fresh);
    if (!result.inserted) throw new Error("expected an insert");
    Object.assign(result.entry, { state: EntryState.applied });
    expect(await store.get(fresh.key)).toEqual(fresh);

    const value = { runId: "r", lastSeq: 1 };
    await store.putMeta("alice", "cursor", value);
    value.lastSeq = 2;
    const meta = await store.getMeta("alice", "cursor");
    expect(meta).toEqual({ runId: "r", lastSeq: 1 });
    Object.assign(meta as object, { lastSeq: 3 });
    expect(await store.getMeta("alice", "cursor")).toEqual({ runId: "r", lastSeq: 1 });
  });

  test("meta: round trip, overwrite, delete, namespace isolation", async () => {
    const store = await open();
    expect(await store.getMeta("alice", "token")).toBeUndefined();
    await store.putMeta("alice", "token", { token: "ct-1", cursor: { runId: "r", lastSeq: 3 } });
    expect(await store.getMeta("alice", "token")).toEqual({
      token: "ct-1",
      cursor: { runId: "r", lastSeq: 3 },
    });
    expect(await store.getMeta("bob", "token")).toBeUndefined();
    await store.putMeta("alice", "token", "ct-2");
    expect(await store.getMeta("alice", "token")).toBe("ct-2");
    await store.deleteMeta("alice", "token");
    expect(await store.getMeta("alice", "token")).toBeUndefined();
    await store.deleteMeta("alice", "never-written");
  });

  test("bad input is refused with a storage error that never quotes the answer", async () => {
    const store = await open();
    const kept = makeTestEntry();
    await store.put(kept);
    const secret = "do-not-log-this-secret";
    const unclonable = makeTestEntry({
      decision: { kind: "approve", editedArgs: { note: secret, callback: () => secret } },
    });
    const cloneError = await rejection(store.put(unclonable));
    expect(cloneError.kind).toBe("storage_failed");
    expect(cloneError.message).toContain("put");
    expect(cloneError.message).not.toContain(secret);
    expect(await store.get(unclonable.key)).toBeUndefined();

    const noKey = makeTestEntry({ key: "", body: secret });
    const keyError = await rejection(store.put(noKey));
    expect(keyError.kind).toBe("storage_failed");
    expect(keyError.message).not.toContain(secret);

    const metaError = await rejection(store.putMeta("alice", "x", { secret, fn: () => secret }));
    expect(metaError.kind).toBe("storage_failed");
    expect(metaError.message).not.toContain(secret);

    expect(await store.listByNamespace("alice")).toEqual([kept]);
  });

  test("a closed store rejects with storage_unavailable", async () => {
    const store = await open();
    store.close();
    expect((await rejection(store.get("k"))).kind).toBe("storage_unavailable");
    expect((await rejection(store.put(makeTestEntry()))).kind).toBe("storage_unavailable");
  });

  // Only stores that can be reopened (IndexedDB) have a reload and a second tab:
}
