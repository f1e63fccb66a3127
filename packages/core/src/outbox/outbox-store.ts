import { OutboxError } from "../errors/outbox-error";
import { type EntrySet, EntryState, type OutboxEntry } from "./entry";

/**
 * Durable storage for outbox entries and per-namespace metadata. Every write resolves
 * once durable (IndexedDB: a `strict` transaction's `complete`); entries are copied in
 * and out. Enforced, not trusted: no delete before a final verdict (`clear` is sign-out),
 * and one entry per interrupt (`putIfAbsentForInterrupt` is one transaction). Failures
 * reject as `storage_quota`, `storage_unavailable` or `storage_failed`, never naming the answer.
 */
export interface OutboxStore {
  /** The entry stored under this idempotency key, or `undefined`. */
  get(key: string): Promise<OutboxEntry | undefined>;
  /** Unconditional write, for seeding and tests; changes go through {@link OutboxStore.commit}. */
  put(entry: OutboxEntry): Promise<void>;
  /**
   * Compare-and-set on `revision` in one transaction, storing revision + 1. Refused when
   * another writer got there first or the entry is gone: a wiped entry never comes back.
   */
  commit(entry: OutboxEntry): Promise<CommitResult>;
  /** Several commits (distinct keys) in one transaction: one durable flush. Optional. */
  commitAll?(entries: readonly OutboxEntry[]): Promise<CommitResult[]>;
  /**
   * A sending tab's start in one transaction: one metadata value and the open entries,
   * then the compare-and-set write `firstCommit` derives. One flush where there were four.
   * Optional: without it the client reads them apart.
   */
  readAtStart?(request: StartReadRequest): Promise<StartReadResult>;
  /**
   * A namespace's entries, oldest first: all, `open` (through an index) or `settled`.
   * @default "all"
   */
  listByNamespace(namespace: string, set?: EntrySet): Promise<OutboxEntry[]>;
  /** Every entry answering one interrupt, oldest first, including superseded ones. */
  listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]>;
  /**
   * Atomically returns the live (not superseded) entry for the interrupt, else inserts
   * `entry`. The caller, not the store, judges a duplicate from a conflict.
   */
  putIfAbsentForInterrupt(entry: OutboxEntry, options?: PutIfAbsentOptions): Promise<PutIfAbsentResult>;
  /** Deletes a final entry (`false` if absent); throws `storage_failed` for one not final. */
  delete(key: string): Promise<boolean>;
  /** Wipes a namespace's entries, background runs and metadata: sign-out. */
  clear(namespace: string): Promise<void>;
  /** Background run records as stored; one row per run, so two tabs never lose one. */
  listBackgroundRuns(namespace: string): Promise<unknown[]>;
  putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void>;
  deleteBackgroundRun(namespace: string, runId: string): Promise<void>;
  /** A metadata value as stored: validate it before use. */
  getMeta(namespace: string, id: string): Promise<unknown>;
  putMeta(namespace: string, id: string, value: unknown): Promise<void>;
  deleteMeta(namespace: string, id: string): Promise<void>;
  /** Releases the connection. Later calls reject with `storage_unavailable`. */
  close(): void;
}

export interface PutIfAbsentOptions {
  /**
   * Whether an existing entry no longer blocks a new answer; runs inside the transaction.
   * @default isSupersededByDefault (only `needs_user` entries are superseded)
   */
  readonly isSuperseded?: (existing: OutboxEntry) => boolean;
}

/** What {@link OutboxStore.readAtStart} reads, and how it decides its one write. */
export interface StartReadRequest {
  readonly namespace: string;
  readonly metaId: string;
  /** The entry to write in the same transaction, or `undefined`; synchronous and pure. */
  readonly firstCommit: (meta: unknown, entries: readonly OutboxEntry[]) => OutboxEntry | undefined;
}

export interface StartReadResult {
  readonly meta: unknown;
  readonly entries: OutboxEntry[];
  readonly commit?: CommitResult;
}

export type CommitResult =
  | { readonly committed: true; readonly entry: OutboxEntry }
  | {
      readonly committed: false;
      readonly current: OutboxEntry | undefined;
    };

/** Entries written before revisions existed count as 0. */
export function revisionOf(entry: OutboxEntry | undefined): number {
  return entry?.revision ?? 0;
}

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
 * Only a `needs_user` entry is replaced by a new answer: in-flight ones must not race a
 * second send, and final ones say something the person must see first.
 */
export function isSupersededByDefault(existing: OutboxEntry): boolean {
  return existing.state === EntryState.needsUser;
}

export function compareEntries(a: OutboxEntry, b: OutboxEntry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

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

/** Rejects entries IndexedDB could not index; names the field, never its value. */
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

export function assertMetaKey(operation: string, namespace: string, id: string): void {
  if (typeof namespace !== "string" || namespace.length === 0) {
    throw new OutboxError("storage_failed", `${operation}: namespace must be a non-empty string`);
  }
  if (typeof id !== "string" || id.length === 0) {
    throw new OutboxError("storage_failed", `${operation}: id must be a non-empty string`);
  }
}

export function refusedDelete(entry: OutboxEntry): OutboxError {
  return new OutboxError(
    "storage_failed",
    `delete refused: the entry is in state "${entry.state}", which is not final; never delete before a final verdict`,
  );
}
