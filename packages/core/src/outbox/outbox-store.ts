import { OutboxError } from "../errors/outbox-error";
import { type EntrySet, EntryState, type OutboxEntry } from "./entry";

/**
 * Durable storage for outbox entries and small per-namespace metadata (stream
 * cursors, background continuation tokens).
 *
 * Every method is async and every write resolves only once it is durable (for
 * IndexedDB: a `strict` transaction whose `complete` event fired). Entries are
 * copied on the way in and out, so a caller can never mutate what is stored.
 *
 * Two rules are enforced here rather than trusted to callers:
 * - **Never delete before a final verdict.** `delete` throws for an entry that
 *   is not in a final state; only `clear(namespace)` (sign-out) wipes live ones.
 * - **One entry per interrupt.** `putIfAbsentForInterrupt` checks and inserts in
 *   one transaction, so a double click, or two tabs sharing one database, yields
 *   one entry.
 *
 * Failures reject with an `OutboxError` of kind `storage_quota`,
 * `storage_unavailable` or `storage_failed`; messages name the operation, never
 * the answer.
 */
export interface OutboxStore {
  /** The entry stored under this idempotency key, or `undefined`. */
  get(key: string): Promise<OutboxEntry | undefined>;
  /**
   * Inserts or overwrites the entry with this key as given (its `revision`
   * included); resolves once durable. Unconditional: for seeding a store and for
   * tests. Changes to an entry go through {@link OutboxStore.commit}.
   */
  put(entry: OutboxEntry): Promise<void>;
  /**
   * Compare-and-set: writes `entry` only if the stored entry's revision is
   * `entry.revision` (the one the writer read; absent counts as 0), checked and
   * written in one transaction, and stores it with the revision one higher.
   * Refused when another writer got there first (another tab, a leader that
   * lost its lock) or the entry is gone (discarded, or wiped by `clear`): a
   * change is never written over newer state and a wiped entry never comes back.
   */
  commit(entry: OutboxEntry): Promise<CommitResult>;
  /**
   * Several commits, each judged as {@link OutboxStore.commit} judges one, in
   * one transaction: one durable flush for all of them (group commit). Keys are
   * distinct. Optional: a store whose writes cost no flush (memory) leaves it out.
   */
  commitAll?(entries: readonly OutboxEntry[]): Promise<CommitResult[]>;
  /**
   * The start of a sending tab in one readwrite transaction: reads one metadata
   * value (the cached server kind) and the namespace's open entries, then writes the
   * entry `firstCommit` derives from them, if any, judged as
   * {@link OutboxStore.commit} judges one (compare-and-set by revision). One
   * durable flush where there were four transactions. Optional: a client over a
   * store without it reads the kind and the entries apart, and commits later.
   */
  readAtStart?(request: StartReadRequest): Promise<StartReadResult>;
  /**
   * A namespace's entries, oldest first (`createdAt`, then `key`): all of them,
   * the `open` ones (no settled verdict: what a start reads, through an index)
   * or the `settled` ones (applied, elsewhere, expired: read on demand).
   * @default "all"
   */
  listByNamespace(namespace: string, set?: EntrySet): Promise<OutboxEntry[]>;
  /** Every entry answering one interrupt, oldest first, including superseded ones. */
  listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]>;
  /**
   * Atomically returns the live entry for the entry's (namespace, threadId,
   * interruptId) if there is one, else inserts `entry`.
   *
   * "Live" means not superseded (see {@link PutIfAbsentOptions.isSuperseded}).
   * The existing entry is returned whatever its decision: the store does not
   * judge whether two answers are "the same", the caller compares
   * `existing.decision` with its own and reports a duplicate or a conflict.
   */
  putIfAbsentForInterrupt(entry: OutboxEntry, options?: PutIfAbsentOptions): Promise<PutIfAbsentResult>;
  /**
   * Deletes an entry in a final state. Resolves `true` if it was deleted,
   * `false` if there was no such entry; throws `OutboxError` (`storage_failed`)
   * for an entry that has no final verdict yet, leaving it untouched.
   */
  delete(key: string): Promise<boolean>;
  /**
   * Wipes one namespace: all its entries, final or not, its background runs and
   * all its metadata. The sign-out path.
   */
  clear(namespace: string): Promise<void>;
  /**
   * Every background run record of a namespace, as stored (validate before use).
   * Each record is its own row keyed by [namespace, runId]: two tabs writing two
   * runs at once never lose one.
   */
  listBackgroundRuns(namespace: string): Promise<unknown[]>;
  /** Stores one background run record (structured-cloneable) under [namespace, runId]; resolves once durable. */
  putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void>;
  deleteBackgroundRun(namespace: string, runId: string): Promise<void>;
  /** A metadata value, or `undefined`. Values are returned as stored: validate them before use. */
  getMeta(namespace: string, id: string): Promise<unknown>;
  /** Stores a structured-cloneable value under (namespace, id); resolves once durable. */
  putMeta(namespace: string, id: string, value: unknown): Promise<void>;
  deleteMeta(namespace: string, id: string): Promise<void>;
  /** Releases the connection. Later calls reject with `storage_unavailable`. */
  close(): void;
}

export interface PutIfAbsentOptions {
  /**
   * Decides whether an existing entry for the same interrupt no longer blocks a
   * new answer. Called inside the transaction; must be synchronous and pure.
   * @default isSupersededByDefault (only `needs_user` entries are superseded)
   */
  readonly isSuperseded?: (existing: OutboxEntry) => boolean;
}

/** What {@link OutboxStore.readAtStart} reads, and how it decides its one write. */
export interface StartReadRequest {
  readonly namespace: string;
  /** The metadata id read with the entries (the cached server kind). */
  readonly metaId: string;
  /**
   * Given what was read, the entry to write in the same transaction (derived
   * from one of `entries`, at the revision read), or `undefined` to write
   * nothing. Runs inside the transaction: synchronous and pure.
   */
  readonly firstCommit: (meta: unknown, entries: readonly OutboxEntry[]) => OutboxEntry | undefined;
}

export interface StartReadResult {
  /** The metadata value as stored (validate it before use), or `undefined`. */
  readonly meta: unknown;
  /** The namespace's open entries, oldest first; the written entry as it is stored now. */
  readonly entries: OutboxEntry[];
  /** The write's result, when `firstCommit` asked for one. */
  readonly commit?: CommitResult;
}

export type CommitResult =
  | { readonly committed: true; readonly entry: OutboxEntry }
  | {
      readonly committed: false;
      /** What is stored now (newer than what the writer read), or `undefined` if the entry is gone. */
      readonly current: OutboxEntry | undefined;
    };

/** The revision an entry was read at; entries written before revisions existed count as 0. */
export function revisionOf(entry: OutboxEntry | undefined): number {
  return entry?.revision ?? 0;
}

/**
 * The compare-and-set rule both stores apply inside one transaction: `next`
 * may replace `stored` only if it was derived from exactly that revision.
 */
export function decideCommit(stored: OutboxEntry | undefined, next: OutboxEntry): CommitResult {
  if (stored === undefined || revisionOf(stored) !== revisionOf(next)) {
    return { committed: false, current: stored };
  }
  return { committed: true, entry: { ...next, revision: revisionOf(next) + 1 } };
}

export type PutIfAbsentResult =
  | { readonly inserted: true; readonly entry: OutboxEntry }
  | { readonly inserted: false; readonly existing: OutboxEntry };

/**
 * An entry in `needs_user` is waiting for the person to answer again (the card
 * went stale, the answer was refused as invalid): a new answer replaces it.
 * Every other state blocks a new entry: in-flight entries must not race a second
 * send, and `applied`, `elsewhere`, `lost` and `expired` say something the
 * person has to see before anything else is sent for that interrupt.
 */
export function isSupersededByDefault(existing: OutboxEntry): boolean {
  return existing.state === EntryState.needsUser;
}

/** Storage order: oldest first, ties broken by key so the order is total. */
export function compareEntries(a: OutboxEntry, b: OutboxEntry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The newest entry that still blocks a new answer, if any. */
export function findLiveEntry(
  entries: readonly OutboxEntry[],
  isSuperseded: (existing: OutboxEntry) => boolean,
): OutboxEntry | undefined {
  let live: OutboxEntry | undefined;
  for (const entry of entries) {
    if (isSuperseded(entry)) continue;
    if (live === undefined || compareEntries(live, entry) < 0) live = entry;
  }
  return live;
}

const REQUIRED_STRING_FIELDS = ["key", "namespace", "threadId", "interruptId"] as const;

/**
 * Rejects entries IndexedDB could not index, with the same error in every
 * implementation. Names the field, never its value.
 */
export function assertStorableEntry(operation: string, entry: OutboxEntry): void {
  if (typeof entry !== "object" || entry === null) {
    throw new OutboxError("storage_failed", `${operation}: the entry is not an object`);
  }
  for (const field of REQUIRED_STRING_FIELDS) {
    const value: unknown = entry[field];
    if (typeof value !== "string" || value.length === 0) {
      throw new OutboxError("storage_failed", `${operation}: entry.${field} must be a non-empty string`);
    }
  }
}

/** Metadata keys are (namespace, id) pairs of non-empty strings in every implementation. */
export function assertMetaKey(operation: string, namespace: string, id: string): void {
  if (typeof namespace !== "string" || namespace.length === 0) {
    throw new OutboxError("storage_failed", `${operation}: namespace must be a non-empty string`);
  }
  if (typeof id !== "string" || id.length === 0) {
    throw new OutboxError("storage_failed", `${operation}: id must be a non-empty string`);
  }
}

/** Shared by both stores so the refusal reads the same everywhere. */
export function refusedDelete(entry: OutboxEntry): OutboxError {
  return new OutboxError(
    "storage_failed",
    `delete refused: the entry is in state "${entry.state}", which is not final; never delete before a final verdict`,
  );
}
