import type { IDBPTransaction, StoreNames } from "idb";
import { OutboxError } from "../errors/outbox-error";
import { type EntrySet, EntryState, isFinalState, type OutboxEntry, SETTLED_STATES } from "./entry";
import { type ConnectionEvents, type ConnectionName, IdbConnection } from "./idb-connection";
import { DEFAULT_OUTBOX_DB_NAME, type OutboxDb, type OutboxDbSchema, openOutboxDb } from "./idb-schema";
import { runInTransaction } from "./idb-transaction";
import {
  assertMetaKey,
  assertStorableEntry,
  type CommitResult,
  compareEntries,
  decideCommit,
  findLiveEntry,
  isSupersededByDefault,
  type OutboxStore,
  type PutIfAbsentOptions,
  type PutIfAbsentResult,
  refusedDelete,
  type StartReadRequest,
  type StartReadResult,
} from "./outbox-store";
import { afterStartCommit } from "./start-read";
import { toStorageError } from "./storage-error";

export { DEFAULT_OUTBOX_DB_NAME, OUTBOX_DB_VERSION } from "./idb-schema";

// Every write waits for the data to reach disk: an answer that `put` reported
// as stored must survive a crash a millisecond later.
const STRICT: IDBTransactionOptions = { durability: "strict" };

const OPEN_STATES = Object.values(EntryState).filter((state) => !SETTLED_STATES.includes(state));

export interface IdbStoreOptions extends ConnectionEvents {
  /**
   * The IndexedDB factory. Pass it explicitly in tests (a fresh
   * `new IDBFactory()` from fake-indexeddb) or to share one between clients;
   * passing `undefined` explicitly means "no IndexedDB here".
   * @default globalThis.indexedDB, read when `open` is called, never at import
   */
  readonly indexedDB?: IDBFactory | undefined;
  /**
   * The database name; give each app (or test) its own.
   * @default "agui-outbox"
   */
  readonly dbName?: string;
}

interface EntryIndexes {
  index(name: "by-namespace"): { getAll(key: string): Promise<OutboxEntry[]> };
  index(name: "by-state"): { getAll(key: [string, EntryState]): Promise<OutboxEntry[]> };
}

async function readEntries(entries: EntryIndexes, namespace: string, set: EntrySet): Promise<OutboxEntry[]> {
  const lists =
    set === "all"
      ? [entries.index("by-namespace").getAll(namespace)]
      : (set === "open" ? OPEN_STATES : SETTLED_STATES).map((state) =>
          entries.index("by-state").getAll([namespace, state]),
        );
  return (await Promise.all(lists)).flat().sort(compareEntries);
}

/**
 * The durable `OutboxStore`. Each method is one short transaction, writes strict; nothing but
 * IndexedDB requests is awaited inside one, so none auto-commits half-way. The connection
 * reopens by itself when it closes under the store.
 */
export class IdbStore implements OutboxStore {
  readonly #connection: IdbConnection;
  readonly dbName: string;

  private constructor(connection: IdbConnection, dbName: string) {
    this.#connection = connection;
    this.dbName = dbName;
  }

  /** Opens (creating or upgrading); `storage_unavailable` when missing, refused, failing or blocked. */
  static async open(options: IdbStoreOptions = {}): Promise<IdbStore> {
    const factory = "indexedDB" in options ? options.indexedDB : globalIndexedDb();
    const dbName = options.dbName ?? DEFAULT_OUTBOX_DB_NAME;
    if (factory === undefined) {
      throw new OutboxError("storage_unavailable", "open failed: IndexedDB is not available here");
    }
    const db = await openOutboxDb(factory, dbName);
    return new IdbStore(new IdbConnection(db, factory, dbName, options), dbName);
  }

  get connection(): ConnectionName {
    return this.#connection.name;
  }

  get(key: string): Promise<OutboxEntry | undefined> {
    return this.#read("get", (db) => db.get("entries", key));
  }

  put(entry: OutboxEntry): Promise<void> {
    return this.#write("put", ["entries"], async (tx) => {
      assertStorableEntry("put", entry);
      await tx.objectStore("entries").put(entry);
    });
  }

  commit(entry: OutboxEntry): Promise<CommitResult> {
    return this.#write("commit", ["entries"], async (tx) => {
      assertStorableEntry("commit", entry);
      const entries = tx.objectStore("entries");
      const result = decideCommit(await entries.get(entry.key), entry);
      if (result.committed) await entries.put(result.entry);
      return result;
    });
  }

  commitAll(entries: readonly OutboxEntry[]): Promise<CommitResult[]> {
    return this.#write("commit", ["entries"], async (tx) => {
      for (const entry of entries) assertStorableEntry("commit", entry);
      const store = tx.objectStore("entries");
      // Every read, then every write, nothing else awaited: one strict flush.
      const stored = await Promise.all(entries.map((entry) => store.get(entry.key)));
      const results = entries.map((entry, index) => decideCommit(stored[index], entry));
      // Async callbacks: a put that throws at once (uncloneable) still lands in Promise.all.
      await Promise.all(
        results.map(async (result) => (result.committed ? await store.put(result.entry) : undefined)),
      );
      return results;
    });
  }

  readAtStart(request: StartReadRequest): Promise<StartReadResult> {
    const { namespace, metaId } = request;
    return this.#write("readAtStart", ["entries", "meta"], async (tx) => {
      assertMetaKey("readAtStart", namespace, metaId);
      const store = tx.objectStore("entries");
      const [record, entries] = await Promise.all([
        tx.objectStore("meta").get([namespace, metaId]),
        readEntries(store, namespace, "open"),
      ]);
      const meta = record?.value;
      const next = request.firstCommit(meta, entries);
      if (next === undefined) return { meta, entries };
      assertStorableEntry("readAtStart", next);
      const read = entries.find((entry) => entry.key === next.key) ?? (await store.get(next.key));
      const commit = decideCommit(read, next);
      if (commit.committed) await store.put(commit.entry);
      return { meta, entries: afterStartCommit(entries, next.key, commit), commit };
    });
  }

  listByNamespace(namespace: string, set: EntrySet = "all"): Promise<OutboxEntry[]> {
    return this.#read("listByNamespace", (db) =>
      readEntries(db.transaction("entries").store, namespace, set),
    );
  }

  listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]> {
    return this.#read("listByInterrupt", async (db) =>
      (await db.getAllFromIndex("entries", "by-interrupt", [namespace, threadId, interruptId])).sort(
        compareEntries,
      ),
    );
  }

  async putIfAbsentForInterrupt(
    entry: OutboxEntry,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    const operation = "putIfAbsentForInterrupt";
    let live: OutboxEntry | undefined;
    try {
      return await this.#write(operation, ["entries"], async (tx): Promise<PutIfAbsentResult> => {
        assertStorableEntry(operation, entry);
        const entries = tx.objectStore("entries");
        // One readwrite transaction: a second tab's call is serialised after it. Both
        // requests go out at once (the read runs first): one round trip, not two.
        const reading = entries
          .index("by-interrupt")
          .getAll([entry.namespace, entry.threadId, entry.interruptId]);
        // `add`, not `put`: a reused key must fail rather than overwrite another answer.
        const adding = entries.add(entry);
        live = findLiveEntry(await reading, options.isSuperseded ?? isSupersededByDefault);
        // Another answer is live: the abort takes the insert back (it cannot have
        // committed before its result is delivered), answered in the catch below.
        if (live !== undefined) tx.abort();
        await adding;
        return { inserted: true, entry: structuredClone(entry) };
      });
    } catch (error) {
      if (live !== undefined) return { inserted: false, existing: live };
      throw error;
    }
  }

  delete(key: string): Promise<boolean> {
    return this.#write("delete", ["entries"], async (tx) => {
      const entries = tx.objectStore("entries");
      const entry = await entries.get(key);
      if (entry === undefined) return false;
      if (!isFinalState(entry.state)) throw refusedDelete(entry);
      await entries.delete(key);
      return true;
    });
  }

  clear(namespace: string): Promise<void> {
    return this.#write("clear", ["entries", "meta", "background"], async (tx) => {
      const entries = tx.objectStore("entries");
      const keys = await entries.index("by-namespace").getAllKeys(namespace);
      // Meta and background rows are keyed [namespace, id]: one range holds a namespace's rows.
      const rows = IDBKeyRange.bound([namespace], [namespace, []]);
      await Promise.all([
        ...keys.map((key) => entries.delete(key)),
        tx.objectStore("meta").delete(rows),
        tx.objectStore("background").delete(rows),
      ]);
    });
  }

  listBackgroundRuns(namespace: string): Promise<unknown[]> {
    return this.#read("listBackgroundRuns", async (db) =>
      (await db.getAllFromIndex("background", "by-namespace", namespace)).map((row) => row.value),
    );
  }

  putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void> {
    return this.#write("putBackgroundRun", ["background"], async (tx) => {
      assertMetaKey("putBackgroundRun", namespace, runId);
      await tx.objectStore("background").put({ namespace, runId, value: record });
    });
  }

  deleteBackgroundRun(namespace: string, runId: string): Promise<void> {
    return this.#write("deleteBackgroundRun", ["background"], async (tx) => {
      assertMetaKey("deleteBackgroundRun", namespace, runId);
      await tx.objectStore("background").delete([namespace, runId]);
    });
  }

  getMeta(namespace: string, id: string): Promise<unknown> {
    return this.#read("getMeta", async (db) => {
      assertMetaKey("getMeta", namespace, id);
      return (await db.get("meta", [namespace, id]))?.value;
    });
  }

  putMeta(namespace: string, id: string, value: unknown): Promise<void> {
    return this.#write("putMeta", ["meta"], async (tx) => {
      assertMetaKey("putMeta", namespace, id);
      await tx.objectStore("meta").put({ namespace, id, value });
    });
  }

  deleteMeta(namespace: string, id: string): Promise<void> {
    return this.#write("deleteMeta", ["meta"], async (tx) => {
      assertMetaKey("deleteMeta", namespace, id);
      await tx.objectStore("meta").delete([namespace, id]);
    });
  }

  close(): void {
    this.#connection.close();
  }

  async #read<T>(operation: string, work: (db: OutboxDb) => Promise<T>): Promise<T> {
    try {
      return await work(await this.#connection.db(operation));
    } catch (error) {
      throw toStorageError(operation, error);
    }
  }

  async #write<T, const Names extends StoreNames<OutboxDbSchema>[]>(
    operation: string,
    storeNames: Names,
    work: (tx: IDBPTransaction<OutboxDbSchema, Names, "readwrite">) => Promise<T>,
  ): Promise<T> {
    try {
      const db = await this.#connection.db(operation);
      const tx = db.transaction(storeNames, "readwrite", STRICT);
      return await runInTransaction(tx, () => work(tx));
    } catch (error) {
      throw toStorageError(operation, error);
    }
  }
}

function globalIndexedDb(): IDBFactory | undefined {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
}
