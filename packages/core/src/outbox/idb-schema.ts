import { type DBSchema, type IDBPDatabase, wrap } from "idb";
import { isOutboxError, OutboxError } from "../errors/outbox-error";
import type { EntryState, OutboxEntry } from "./entry";
import { errorName, toOpenError } from "./storage-error";

export const DEFAULT_OUTBOX_DB_NAME = "agui-outbox";

/**
 * Bump together with a new `oldVersion` branch in `upgrade`.
 * 1: entries, meta. 2: background runs in their own object store.
 * 3: entries indexed by [namespace, state], so a start reads only open ones.
 */
export const OUTBOX_DB_VERSION = 3;

/** The v1 layout kept background runs in `meta`: an index of ids plus one record per run. */
const V1_BACKGROUND_INDEX_ID = "background-runs";
const V1_BACKGROUND_RUN_PREFIX = "background-run:";

export interface MetaRecord {
  readonly namespace: string;
  readonly id: string;
  readonly value: unknown;
}

interface BackgroundRow {
  readonly namespace: string;
  readonly runId: string;
  readonly value: unknown;
}

export interface OutboxDbSchema extends DBSchema {
  entries: {
    key: string;
    value: OutboxEntry;
    indexes: {
      "by-namespace": string;
      "by-interrupt": [string, string, string];
      "by-state": [string, EntryState];
    };
  };
  meta: { key: [string, string]; value: MetaRecord; indexes: { "by-namespace": string } };
  background: { key: [string, string]; value: BackgroundRow; indexes: { "by-namespace": string } };
}

export type OutboxDb = IDBPDatabase<OutboxDbSchema>;

/** The database exists but is not an outbox database: reopening cannot help. */
export class NotAnOutboxDatabase extends OutboxError {
  constructor(dbName: string) {
    super("storage_unavailable", `open failed: "${dbName}" is not an outbox database`);
  }
}

/** Opens at this code's version, or a newer one another tab upgraded to (if it keeps our stores). */
export async function openOutboxDb(factory: IDBFactory, dbName: string): Promise<OutboxDb> {
  let raw: IDBDatabase;
  try {
    raw = await openRaw(factory, dbName, OUTBOX_DB_VERSION);
  } catch (error) {
    if (!(isOutboxError(error) && errorName(error.cause) === "VersionError")) throw error;
    raw = await openRaw(factory, dbName, undefined);
  }
  const db = wrap(raw) as unknown as OutboxDb;
  const names = db.objectStoreNames;
  if (!(names.contains("entries") && names.contains("meta") && names.contains("background"))) {
    db.close();
    throw new NotAnOutboxDatabase(dbName);
  }
  return db;
}

function openRaw(factory: IDBFactory, dbName: string, version: number | undefined): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = version === undefined ? factory.open(dbName) : factory.open(dbName, version);
    } catch (error) {
      // Thrown at once in sandboxed frames (SecurityError) and old private modes.
      reject(toOpenError("open", error));
      return;
    }
    let settled = false;
    let foreign = false;
    const settle = (error?: OutboxError) => {
      if (settled) return false;
      settled = true;
      if (error) reject(error);
      else resolve(request.result);
      return true;
    };
    request.addEventListener("upgradeneeded", (event) => {
      const tx = request.transaction;
      if (tx === null || upgrade(request.result, tx, event.oldVersion)) return;
      // Someone else's database under our name: leave it as it was.
      foreign = true;
      tx.abort();
    });
    // A tab running old code keeps an older version open: waiting could hang
    // `answer()` for good, so report unavailable now and fall back to memory.
    request.addEventListener("blocked", () =>
      settle(
        new OutboxError(
          "storage_unavailable",
          "open failed: blocked by another tab that keeps an older version of the outbox database open",
        ),
      ),
    );
    request.addEventListener("success", () => {
      if (!settle()) request.result.close();
    });
    request.addEventListener("error", (event) => {
      event.preventDefault();
      settle(foreign ? new NotAnOutboxDatabase(dbName) : toOpenError("open", request.error));
    });
  });
}

/** One branch per version, gated on `oldVersion`, all in the upgrade transaction. */
function upgrade(db: IDBDatabase, tx: IDBTransaction, oldVersion: number): boolean {
  const names = db.objectStoreNames;
  if (oldVersion >= 1 && !(names.contains("entries") && names.contains("meta"))) return false;
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
  if (oldVersion < 3) tx.objectStore("entries").createIndex("by-state", ["namespace", "state"]);
  return true;
}

/** v1 → v2: each `background-run:<runId>` meta record becomes a row; the racy id list goes. */
function moveBackgroundRunsOutOfMeta(meta: IDBObjectStore, background: IDBObjectStore): void {
  const cursorRequest = meta.openCursor();
  cursorRequest.addEventListener("success", () => {
    const cursor = cursorRequest.result;
    if (cursor === null) return;
    const { namespace, id, value } = cursor.value as Partial<MetaRecord>;
    if (typeof namespace === "string" && typeof id === "string") {
      if (id.startsWith(V1_BACKGROUND_RUN_PREFIX)) {
        const runId = id.slice(V1_BACKGROUND_RUN_PREFIX.length);
        if (runId.length > 0) background.put({ namespace, runId, value });
        cursor.delete();
      } else if (id === V1_BACKGROUND_INDEX_ID) {
        cursor.delete();
      }
    }
    cursor.continue();
  });
}
