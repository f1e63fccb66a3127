import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, wrap } from "idb";
import { isOutboxError, OutboxError } from "../errors/outbox-error";
import { isFinalState, type OutboxEntry } from "./entry";
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
import { errorName, toOpenError, toStorageError } from "./storage-error";

/** The database name used when none is given. */
export const DEFAULT_OUTBOX_DB_NAME = "agui-outbox";

/**
 * Bump together with a new `oldVersion` branch in `upgrade`.
 * 1: entries, meta. 2: background runs in their own object store.
 */
export const OUTBOX_DB_VERSION = 2;

/** The v1 layout kept background runs in `meta`: an index of ids plus one record per run. */
const V1_BACKGROUND_INDEX_ID = "background-runs";
const V1_BACKGROUND_RUN_PREFIX = "background-run:";

interface MetaRecord {
  readonly namespace: string;
  readonly id: string;
  readonly value: unknown;
}

interface BackgroundRow {
  readonly namespace: string;
  readonly runId: string;
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
  background: {
    key: [string, string];
    value: BackgroundRow;
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
   * Called when the connection closes under the store: another tab opened a
   * newer version of the database (the store closes at once so that tab's
   * upgrade is not blocked), or the browser closed it. The store reopens by
   * itself; calls made meanwhile wait for the reopen, calls that were running
   * reject with `storage_unavailable` (retry them after a backoff).
   */
  readonly onClose?: (reason: OutboxError) => void;
  /** The store reopened after a close (at the newer version, if another tab upgraded): re-read what it holds. */
  readonly onReopen?: () => void;
  /**
   * The store could not reopen (the database is gone for good, or the newer
   * version is not an outbox database). Every later call rejects with
   * `storage_unavailable` and this reason: continue from memory and say so.
   */
  readonly onUnavailable?: (reason: OutboxError) => void;
}

type Connection =
  | { readonly name: "open"; readonly db: OutboxDb }
  /** `ready` never rejects: it settles once the connection has moved on. */
  | { readonly name: "reopening"; readonly ready: Promise<void> }
  /** The last reopen failed for a passing reason; the next call tries once more. */
  | { readonly name: "reopen_failed"; readonly reason: OutboxError }
  | { readonly name: "unavailable"; readonly reason: OutboxError }
  | { readonly name: "closed"; readonly reason: OutboxError };

/**
 * The durable `OutboxStore`: one IndexedDB database (via `idb`) with an
 * `entries` object store keyed by idempotency key and a `meta` object store
 * keyed by [namespace, id]. Each method is one short transaction; writes use
 * strict durability and resolve after the transaction completes. Nothing but
 * IndexedDB requests is awaited inside a transaction, so none of them can
 * auto-commit half-way.
 */
export class IdbStore implements OutboxStore {
  /**
   *   open ──versionchange / close──▶ reopening ──opened──▶ open (onReopen)
   *    │                                  └──not an outbox db / gone──▶ unavailable (onUnavailable)
   *    └──close()──▶ closed
   * A reopen that fails for a passing reason (blocked, an error) goes back to
   * reopening on the next call, never in a loop of its own.
   */
  #connection: Connection;
  readonly #factory: IDBFactory;
  readonly #options: IdbStoreOptions;
  /** The database name, for opening a second connection (another tab, a reload). */
  readonly dbName: string;

  private constructor(db: OutboxDb, factory: IDBFactory, dbName: string, options: IdbStoreOptions) {
    this.#factory = factory;
    this.dbName = dbName;
    this.#options = options;
    this.#connection = { name: "open", db };
    this.#watch(db);
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
    const db = await openOutboxDb(factory, dbName);
    return new IdbStore(db, factory, dbName, options);
  }

  /** Where the connection stands; `unavailable` carries the reason. */
  get connection(): Connection["name"] {
    return this.#connection.name;
  }

  #watch(db: OutboxDb): void {
    db.addEventListener("versionchange", () => {
      db.close();
      this.#lost(
        db,
        new OutboxError(
          "storage_unavailable",
          "the outbox database was closed so that another tab could upgrade or delete it",
        ),
      );
    });
    db.addEventListener("close", () => {
      this.#lost(db, new OutboxError("storage_unavailable", "the browser closed the outbox database"));
    });
  }

  /** The connection `db` closed under us: report it once and start reopening. */
  #lost(db: OutboxDb, reason: OutboxError): void {
    const current = this.#connection;
    if (current.name !== "open" || current.db !== db) return;
    this.#reopen();
    this.#options.onClose?.(reason);
  }

  #reopen(): void {
    const ready = openOutboxDb(this.#factory, this.dbName).then(
      (db) => {
        if (this.#connection.name !== "reopening" || this.#connection.ready !== ready) {
          db.close(); // closed by the app meanwhile
          return;
        }
        this.#connection = { name: "open", db };
        this.#watch(db);
        this.#options.onReopen?.();
      },
      (error: unknown) => {
        if (this.#connection.name !== "reopening" || this.#connection.ready !== ready) return;
        const reason = toOpenError("reopen", error);
        if (error instanceof NotAnOutboxDatabase) {
          this.#connection = { name: "unavailable", reason };
          this.#options.onUnavailable?.(reason);
        } else {
          this.#connection = { name: "reopen_failed", reason };
        }
      },
    );
    this.#connection = { name: "reopening", ready };
  }

  /**
   * The open database, after waiting for a reopen under way (or starting one
   * when the last failed). Rejects with `storage_unavailable` when there is
   * none to be had; never loops: one reopen per call at most.
   */
  async #db(operation: string): Promise<OutboxDb> {
    if (this.#connection.name === "reopen_failed") this.#reopen();
    const waiting = this.#connection;
    if (waiting.name === "reopening") await waiting.ready;
    const current = this.#connection;
    if (current.name === "open") return current.db;
    const reason =
      current.name === "reopening"
        ? new OutboxError("storage_unavailable", "the outbox database is reopening")
        : current.reason;
    throw new OutboxError("storage_unavailable", `${operation} failed: ${reason.message}`, { cause: reason });
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
      // Every read, then every write, with no other await in between: the
      // transaction stays active and commits once, with one strict flush.
      const stored = await Promise.all(entries.map((entry) => store.get(entry.key)));
      const results = entries.map((entry, index) => decideCommit(stored[index], entry));
      // Async callbacks: a put that throws at once (an uncloneable value) still
      // lands in Promise.all, with the others' aborted requests.
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
      // Both reads at once; the write, if any, follows in the same transaction,
      // with nothing but IndexedDB requests awaited in between.
      const [record, listed] = await Promise.all([
        tx.objectStore("meta").get([namespace, metaId]),
        store.index("by-namespace").getAll(namespace),
      ]);
      const entries = listed.sort(compareEntries);
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
    return this.#write("clear", ["entries", "meta", "background"], async (tx) => {
      const entries = tx.objectStore("entries");
      const meta = tx.objectStore("meta");
      const background = tx.objectStore("background");
      const [entryKeys, metaKeys, backgroundKeys] = await Promise.all([
        entries.index("by-namespace").getAllKeys(namespace),
        meta.index("by-namespace").getAllKeys(namespace),
        background.index("by-namespace").getAllKeys(namespace),
      ]);
      await Promise.all([
        ...entryKeys.map((key) => entries.delete(key)),
        ...metaKeys.map((key) => meta.delete(key)),
        ...backgroundKeys.map((key) => background.delete(key)),
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
    const current = this.#connection;
    if (current.name === "closed") return;
    this.#connection = {
      name: "closed",
      reason: new OutboxError("storage_unavailable", "the outbox store is closed"),
    };
    if (current.name === "open") current.db.close();
  }

  async #read<T>(operation: string, work: (db: OutboxDb) => Promise<T>): Promise<T> {
    try {
      return await work(await this.#db(operation));
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
      const db = await this.#db(operation);
      const tx = db.transaction(storeNames, "readwrite", STRICT);
      return await runInTransaction(tx, () => work(tx));
    } catch (error) {
      throw toStorageError(operation, error);
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

/** The database exists but is not an outbox database: reopening cannot help. */
class NotAnOutboxDatabase extends OutboxError {
  constructor(message: string) {
    super("storage_unavailable", message);
  }
}

/**
 * Opens the outbox database at this code's version, upgrading it when older.
 * When another tab (newer code) already upgraded it further, opens it at that
 * newer version instead: newer versions keep the object stores this code uses,
 * and that is checked before the connection is used.
 */
async function openOutboxDb(factory: IDBFactory, dbName: string): Promise<OutboxDb> {
  let raw: IDBDatabase;
  try {
    raw = await openRaw(factory, dbName, OUTBOX_DB_VERSION);
  } catch (error) {
    if (!(isOutboxError(error) && errorName(error.cause) === "VersionError")) throw error;
    raw = await openRaw(factory, dbName, undefined);
  }
  // idb's typed wrapper over a connection we opened ourselves, so the factory can be injected.
  const db = wrap(raw) as unknown as OutboxDb;
  for (const name of ["entries", "meta", "background"] as const) {
    if (!db.objectStoreNames.contains(name)) {
      db.close();
      throw new NotAnOutboxDatabase(`open failed: "${dbName}" is not an outbox database`);
    }
  }
  return db;
}

/** `indexedDB.open` with the upgrade, blocked and error paths mapped to `OutboxError`s. */
function openRaw(factory: IDBFactory, dbName: string, version: number | undefined): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = version === undefined ? factory.open(dbName) : factory.open(dbName, version);
    } catch (error) {
      // Some browsers throw synchronously (SecurityError in sandboxed frames,
      // InvalidStateError in old private modes).
      reject(toOpenError("open", error));
      return;
    }
    let settled = false;
    let foreign = false;
    request.addEventListener("upgradeneeded", (event) => {
      const tx = request.transaction;
      if (tx === null) return;
      if (!upgrade(request.result, tx, event.oldVersion)) {
        // Someone else's database under our name: leave it as it was.
        foreign = true;
        tx.abort();
      }
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
      reject(
        foreign
          ? new NotAnOutboxDatabase(`open failed: "${dbName}" is not an outbox database`)
          : toOpenError("open", request.error),
      );
    });
  });
}

/**
 * Schema migrations, one branch per version, each gated on `oldVersion`, all
 * inside the upgrade transaction (it commits all of them or none).
 */
function upgrade(db: IDBDatabase, tx: IDBTransaction, oldVersion: number): boolean {
  if (oldVersion >= 1 && !(db.objectStoreNames.contains("entries") && db.objectStoreNames.contains("meta"))) {
    return false;
  }
  if (oldVersion < 1) {
    const entries = db.createObjectStore("entries", { keyPath: "key" });
    entries.createIndex("by-namespace", "namespace");
    entries.createIndex("by-interrupt", ["namespace", "threadId", "interruptId"]);
    const meta = db.createObjectStore("meta", { keyPath: ["namespace", "id"] });
    meta.createIndex("by-namespace", "namespace");
  }
  if (oldVersion < 2) {
    const background = db.createObjectStore("background", { keyPath: ["namespace", "runId"] });
    background.createIndex("by-namespace", "namespace");
    if (oldVersion >= 1) moveBackgroundRunsOutOfMeta(tx.objectStore("meta"), background);
  }
  return true;
}

/**
 * v1 → v2: each `background-run:<runId>` meta record becomes a row of its own
 * in `background`; the per-namespace id list (a read-modify-write that two tabs
 * could race) is dropped. Every record is moved, listed or not: one the list
 * missed is exactly the run the race lost.
 */
function moveBackgroundRunsOutOfMeta(meta: IDBObjectStore, background: IDBObjectStore): void {
  const cursorRequest = meta.openCursor();
  cursorRequest.addEventListener("success", () => {
    const cursor = cursorRequest.result;
    if (cursor === null) return;
    const record = cursor.value as Partial<MetaRecord>;
    if (typeof record.namespace === "string" && typeof record.id === "string") {
      if (record.id.startsWith(V1_BACKGROUND_RUN_PREFIX)) {
        const runId = record.id.slice(V1_BACKGROUND_RUN_PREFIX.length);
        if (runId.length > 0) background.put({ namespace: record.namespace, runId, value: record.value });
        cursor.delete();
      } else if (record.id === V1_BACKGROUND_INDEX_ID) {
        cursor.delete();
      }
    }
    cursor.continue();
  });
}
