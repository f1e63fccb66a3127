import { expect, test } from "vitest";
import { CommitGroup } from "../../src/outbox/commit-group";
import { EntryState, type OutboxEntry } from "../../src/outbox/entry";
import type { CommitResult, OutboxStore } from "../../src/outbox/outbox-store";
import { makeTestEntry } from "./store-contract";

/** Counts the store's transactions: one per `commit`, one per `commitAll`. */
function counted(store: OutboxStore): { store: OutboxStore; single: () => number; grouped: () => number[] } {
  let single = 0;
  const grouped: number[] = [];
  const commitAll = store.commitAll?.bind(store);
  const wrapped: OutboxStore = Object.create(store, {
    commit: {
      value: (entry: OutboxEntry) => {
        single += 1;
        return store.commit(entry);
      },
    },
    commitAll: {
      value:
        commitAll &&
        ((entries: readonly OutboxEntry[]) => {
          grouped.push(entries.length);
          return commitAll(entries);
        }),
    },
  });
  return { store: wrapped, single: () => single, grouped: () => grouped };
}

/**
 * The group commit over a store that has `commitAll` (IndexedDB). Declares
 * Vitest tests; call it once per environment.
 */
export function runCommitGroupCases(name: string, open: () => Promise<OutboxStore>): void {
  test(`${name}: transitions of many entries asked for in one task share one transaction`, async () => {
    const store = await open();
    const entries = Array.from({ length: 50 }, (_, index) => makeTestEntry({ key: `group-${index}` }));
    for (const entry of entries) await store.put(entry);
    const spy = counted(store);
    const group = new CommitGroup(spy.store);
    const results = await Promise.all(
      entries.map((entry) => group.commit({ ...entry, state: EntryState.sending, attempts: 1 })),
    );
    expect(spy.grouped()).toEqual([50]);
    expect(spy.single()).toBe(0);
    for (const [index, result] of results.entries()) {
      expect(result).toMatchObject({ committed: true, entry: { key: `group-${index}`, revision: 1 } });
      expect(await store.get(`group-${index}`)).toMatchObject({ state: EntryState.sending, revision: 1 });
    }
    store.close();
  });

  test(`${name}: each commit in a group is judged on its own revision`, async () => {
    const store = await open();
    const fresh = makeTestEntry({ key: "judged-fresh" });
    const stale = makeTestEntry({ key: "judged-stale" });
    await store.put(fresh);
    await store.put({ ...stale, revision: 4 });
    const group = new CommitGroup(store);
    const [applied, refused] = await Promise.all([
      group.commit({ ...fresh, attempts: 1 }),
      group.commit({ ...stale, attempts: 1 }),
      group.commit(makeTestEntry({ key: "judged-gone" })),
    ]);
    expect(applied).toMatchObject({ committed: true, entry: { attempts: 1, revision: 1 } });
    expect(refused).toMatchObject({ committed: false, current: { attempts: 0, revision: 4 } });
    expect(await store.get("judged-stale")).toMatchObject({ attempts: 0, revision: 4 });
    expect(await store.get("judged-gone")).toBeUndefined();
    store.close();
  });

  test(`${name}: commits asked for while a group is being written go together in the next one`, async () => {
    const store = await open();
    const entries = Array.from({ length: 6 }, (_, index) => makeTestEntry({ key: `next-${index}` }));
    for (const entry of entries) await store.put(entry);
    const spy = counted(store);
    const group = new CommitGroup(spy.store);
    const first = group.commit({ ...(entries[0] as OutboxEntry), attempts: 1 });
    // The first goes alone at the end of its task; the rest arrive while it is in flight.
    await Promise.resolve();
    await Promise.resolve();
    const rest = entries.slice(1).map((entry) => group.commit({ ...entry, attempts: 1 }));
    const results: CommitResult[] = await Promise.all([first, ...rest]);
    expect(results.every((result) => result.committed)).toBe(true);
    expect(spy.single() + spy.grouped().length).toBe(2);
    expect(spy.grouped().reduce((sum, size) => sum + size, 0) + spy.single()).toBe(6);
    store.close();
  });

  test(`${name}: two changes to one entry in one task are written one after the other`, async () => {
    const store = await open();
    const entry = makeTestEntry({ key: "twice" });
    await store.put(entry);
    const group = new CommitGroup(store);
    const [once, again] = await Promise.all([
      group.commit({ ...entry, attempts: 1 }),
      group.commit({ ...entry, attempts: 2, revision: 1 }),
    ]);
    expect(once).toMatchObject({ committed: true, entry: { revision: 1 } });
    expect(again).toMatchObject({ committed: true, entry: { attempts: 2, revision: 2 } });
    store.close();
  });

  test(`${name}: an entry storage refuses fails alone; the others in its group are written`, async () => {
    const store = await open();
    const good = makeTestEntry({ key: "alone-good" });
    const bad = makeTestEntry({ key: "alone-bad" });
    await store.put(good);
    await store.put(bad);
    const group = new CommitGroup(store);
    const unstorable = {
      ...bad,
      lastError: { kind: "x", message: "y", detail: () => {} },
    } as unknown as OutboxEntry;
    const [written, refused] = await Promise.allSettled([
      group.commit({ ...good, attempts: 1 }),
      group.commit(unstorable),
    ]);
    expect(written).toMatchObject({ status: "fulfilled", value: { committed: true } });
    expect(refused.status).toBe("rejected");
    expect(await store.get("alone-good")).toMatchObject({ attempts: 1, revision: 1 });
    expect((await store.get("alone-bad"))?.revision ?? 0).toBe(0);
    store.close();
  });
}
