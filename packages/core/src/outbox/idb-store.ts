import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, wrap } from "idb";
import { OutboxError } from "../errors/outbox-error";
import { isFinalState, type OutboxEntry } from "./entry";
import {
  assertMetaKey,
  assertStorableEntry,
  compareEntries,
  findLiveEntry,
  isSupersededByDefault,
  type OutboxStore,
  type PutIfAbsentOptions,
  type PutIfAbsentResult,
  refusedDelete,
} from "./outbox-store";
import { errorName, toOpenError, toStorageError } from "./storage-error";

/** The database name used when none is given. */
export const DEFAULT_OUTBOX_DB_NAME = "agui-outbox";

/** Bump together with a new `oldVersion` branch in `upgrade`. */
const DB_VERSION = 1;

interface MetaRecord {
  readonly namespace: string;
  readonly id: string;
  readonly value: unknown;
}

interface OutboxDbSchema extends DBSchema {
  entries: {
    key: string;
    value: OutboxEntry;
    indexes: { "by-namespace": string; "by-interrupt": [string, string, string] };
  };
  meta: {
    key: [string, string];
    value: MetaRecord;
    indexes: { "by-namespace": string };
  };
}

type OutboxDb = IDBPDatabase<OutboxDbSchema>;

// Every write waits for the data to reach disk: an answer that `put` reported
// as stored must survive a crash a millisecond later.
const STRICT: IDBTransactionOptions = { durability: "strict" };

export interface IdbStoreOptions {
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
  /**
   * Called once if the connection closes under the store: another tab opened a
   * newer version of the database (the store closes itself so that tab's
   * upgrade is not blocked), or the browser deleted the database. Later calls
   * reject with `storage_unavailable`; reopen the store to continue.
   */
  readonly onClose?: (reason: OutboxError) => void;
}

/**
 * The durable `OutboxStore`: one IndexedDB database (via `idb`) with an
 * `entries` object store keyed by idempotency key and a `meta` object store
 * keyed by [namespace, id]. Each method is one short transaction; writes use
 * strict durability and resolve after the transaction completes. Nothing but
 * IndexedDB requests is awaited inside a transaction, so none of them can
 * auto-commit half-way.
 */
export class IdbStore implements OutboxStore {
  readonly #db: OutboxDb;
  /** The database name, for opening a second connection (another tab, a reload). */
  readonly dbName: string;
  #closedReason: OutboxError | undefined;

  private constructor(db: OutboxDb, dbName: string, onClose: ((reason: OutboxError) => void) | undefined) {
    this.#db = db;
    this.dbName = dbName;
    const closeUnder = (reason: OutboxError) => {
      if (this.#closedReason !== undefined) return;
      this.#closedReason = reason;
      onClose?.(reason);
    };
    db.addEventListener("versionchange", () => {
      db.close();
      closeUnder(
        new OutboxError(
          "storage_unavailable",
          "the outbox database was closed so that another tab could upgrade or delete it",
        ),
      );
    });
    db.addEventListener("close", () => {
      closeUnder(new OutboxError("storage_unavailable", "the browser closed the outbox database"));
    });
  }

  /**
   * Opens (creating or upgrading) the database. Rejects with
   * `storage_unavailable` when IndexedDB is missing, refuses to open (private
   * modes, security policies), errors, or is blocked by another connection
   * that will not close.
   */
  static async open(options: IdbStoreOptions = {}): Promise<IdbStore> {
    const factory = "indexedDB" in options ? options.indexedDB : globalIndexedDb();
    const dbName = options.dbName ?? DEFAULT_OUTBOX_DB_NAME;
    if (factory === undefined) {
      throw new OutboxError("storage_unavailable", "open failed: IndexedDB is not available here");
    }
    const raw = await openRaw(factory, dbName);
    // idb's typed wrapper over a connection we opened ourselves, so the factory can be injected.
    const db = wrap(raw) as unknown as OutboxDb;
    if (!db.objectStoreNames.contains("entries") || !db.objectStoreNames.contains("meta")) {
      db.close();
      throw new OutboxError("storage_unavailable", `open failed: "${dbName}" is not an outbox database`);
    }
    return new IdbStore(db, dbName, options.onClose);
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

  listByNamespace(namespace: string): Promise<OutboxEntry[]> {
    return this.#read("listByNamespace", async (db) =>
      (await db.getAllFromIndex("entries", "by-namespace", namespace)).sort(compareEntries),
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
        // The check and the insert share one readwrite transaction: IndexedDB
        // serialises overlapping readwrite transactions across connections, so a
        // second tab's call sees this insert. Both requests go out at once (requests
        // run in order, so the read does not see the insert): the common case, no
        // live answer yet, then costs one round trip to the database, not two.
        const reading = entries
          .index("by-interrupt")
          .getAll([entry.namespace, entry.threadId, entry.interruptId]);
        // `add`, not `put`: a reused key must fail rather than overwrite another answer.
        const adding = entries.add(entry);
        live = findLiveEntry(await reading, options.isSuperseded ?? isSupersededByDefault);
        // Another answer is live: take the insert back. The transaction cannot have
        // committed yet (the insert's result is still to be delivered); the abort
        // rejects the insert, and that is answered below.
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
    return this.#write("clear", ["entries", "meta"], async (tx) => {
      const entries = tx.objectStore("entries");
      const meta = tx.objectStore("meta");
      const [entryKeys, metaKeys] = await Promise.all([
        entries.index("by-namespace").getAllKeys(namespace),
        meta.index("by-namespace").getAllKeys(namespace),
      ]);
      await Promise.all([
        ...entryKeys.map((key) => entries.delete(key)),
        ...metaKeys.map((key) => meta.delete(key)),
      ]);
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
    this.#closedReason ??= new OutboxError("storage_unavailable", "the outbox store is closed");
    this.#db.close();
  }

  async #read<T>(operation: string, work: (db: OutboxDb) => Promise<T>): Promise<T> {
    try {
      this.#assertOpen(operation);
      return await work(this.#db);
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
      this.#assertOpen(operation);
      const tx = this.#db.transaction(storeNames, "readwrite", STRICT);
      return await runInTransaction(tx, () => work(tx));
    } catch (error) {
      throw toStorageError(operation, error);
    }
  }

  #assertOpen(operation: string): void {
    if (this.#closedReason !== undefined) {
      throw new OutboxError("storage_unavailable", `${operation} failed: ${this.#closedReason.message}`, {
        cause: this.#closedReason,
      });
    }
  }
}

/**
 * Runs `work` and resolves after the transaction commits. On any failure the
 * transaction is aborted, so a refused or half-done operation writes nothing.
 */
async function runInTransaction<T>(
  tx: { readonly done: Promise<void>; abort(): void },
  work: () => Promise<T>,
): Promise<T> {
  const done = tx.done;
  try {
    const result = await work();
    await done;
    return result;
  } catch (error) {
    // The abort (or the failed request) also rejects `done`; the first error is the one to report.
    done.catch(() => {});
    try {
      tx.abort();
    } catch {
      // Already aborted by the failed request, or already finished.
    }
    if (errorName(error) === "AbortError") {
      // A request cut short by the transaction aborting under it: the
      // transaction's own error says why (QuotaExceededError, for one).
      const cause = await done.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      if (cause !== undefined && errorName(cause) !== "AbortError") throw cause;
    }
    throw error;
  }
}

function globalIndexedDb(): IDBFactory | undefined {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
}

/** `indexedDB.open` with the upgrade, blocked and error paths mapped to `OutboxError`s. */
function openRaw(factory: IDBFactory, dbName: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(dbName, DB_VERSION);
    } catch (error) {
      // Some browsers throw synchronously (SecurityError in sandboxed frames,
      // InvalidStateError in old private modes).
      reject(toOpenError("open", error));
      return;
    }
    let settled = false;
    request.addEventListener("upgradeneeded", (event) => {
      upgrade(wrap(request.result) as unknown as OutboxDb, event.oldVersion);
    });
    request.addEventListener("blocked", () => {
      // Another connection holds an older version open and did not close on
      // `versionchange` (a tab running old code). Waiting could hang `answer()`
      // forever, so report unavailable now; the caller falls back to memory.
      if (settled) return;
      settled = true;
      reject(
        new OutboxError(
          "storage_unavailable",
          "open failed: blocked by another tab that keeps an older version of the outbox database open",
        ),
      );
    });
    request.addEventListener("success", () => {
      if (settled) {
        // The blocked open completed after we gave up on it: release it at once.
        request.result.close();
        return;
      }
      settled = true;
      resolve(request.result);
    });
    request.addEventListener("error", (event) => {
      // Handled here; do not let it surface as an uncaught error on the factory.
      event.preventDefault();
      if (settled) return;
      settled = true;
      reject(toOpenError("open", request.error));
    });
  });
}

/** Schema migrations, one branch per version, each gated on `oldVersion`. */
function upgrade(db: OutboxDb, oldVersion: number): void {
  if (oldVersion < 1) {
    const entries = db.createObjectStore("entries", { keyPath: "key" });
    entries.createIndex("by-namespace", "namespace");
    entries.createIndex("by-interrupt", ["namespace", "threadId", "interruptId"]);
    const meta = db.createObjectStore("meta", { keyPath: ["namespace", "id"] });
    meta.createIndex("by-namespace", "namespace");
  }
}
