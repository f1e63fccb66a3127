import { afterEach, describe, expect, test } from "vitest";
import { isOutboxError, type OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "./entry";
import type { OutboxStore } from "./outbox-store";

export interface OutboxStoreContractOptions {
  /**
   * Opens a second connection to the data behind `store`: another tab sharing
   * the database, or the same tab after a reload. Without it, the reload and
   * two-tab cases are not registered (a memory store has nothing to reopen).
   */
  readonly connect?: (store: OutboxStore) => Promise<OutboxStore>;
  /** Runs after each test once every store it opened is closed (delete databases here). */
  readonly cleanup?: () => Promise<void>;
  /**
   * False for a store that leaves the optional `readAtStart` out (the sealed
   * store: its write cannot wait for WebCrypto inside the transaction).
   * @default true
   */
  readonly startRead?: boolean;
}

let sequence = 0;

/** A complete, valid entry; override what the test is about. */
export function makeTestEntry(overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  sequence += 1;
  return {
    key: `key-${sequence}`,
    namespace: "alice",
    threadId: "thread-1",
    interruptId: "interrupt-1",
    runId: `run-${sequence}`,
    body: `{"threadId":"thread-1","runId":"run-${sequence}"}`,
    decision: { kind: "approve", editedArgs: { target: "prod", replicas: 3 } },
    state: EntryState.queued,
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: `run-${sequence}`, lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: 1_000 + sequence,
    updatedAt: 1_000 + sequence,
    expiresAt: 1_000 + sequence + 23 * 3_600_000,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<OutboxError> {
  try {
    await promise;
  } catch (error) {
    if (isOutboxError(error)) return error;
    throw new Error(`expected an OutboxError, got ${String(error)}`);
  }
  throw new Error("expected the promise to reject");
}

const keysOf = (entries: readonly OutboxEntry[]) => entries.map((entry) => entry.key);

/**
 * The behaviour every `OutboxStore` must have. Declares Vitest tests; call it
 * from a test file once per implementation and environment.
 */
export function runOutboxStoreContract(
  name: string,
  makeStore: () => Promise<OutboxStore>,
  options: OutboxStoreContractOptions = {},
): void {
  const { connect, cleanup } = options;
  const startReadTest = options.startRead === false ? test.skip : test;
  let opened: OutboxStore[] = [];

  const open = async (): Promise<OutboxStore> => {
    const store = await makeStore();
    opened.push(store);
    return store;
  };
  const reconnect = async (store: OutboxStore): Promise<OutboxStore> => {
    if (connect === undefined) throw new Error("unreachable: the test is registered only with connect");
    const second = await connect(store);
    opened.push(second);
    return second;
  };

  describe(`OutboxStore contract: ${name}`, () => {
    afterEach(async () => {
      for (const store of opened) store.close();
      opened = [];
      await cleanup?.();
    });

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
        [...records].sort((a, b) =>
          (a as { runId: string }).runId < (b as { runId: string }).runId ? -1 : 1,
        );
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
    // the cases are not registered for the others rather than reported as skipped.
    if (connect !== undefined) {
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
  });
}
