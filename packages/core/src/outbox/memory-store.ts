import { OutboxError } from "../errors/outbox-error";
import { type EntrySet, inEntrySet, isFinalState, type OutboxEntry } from "./entry";
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

/**
 * An `OutboxStore` in memory: the fallback without IndexedDB, and for tests. Values are
 * `structuredClone`d in and out, so uncloneable input fails as in IndexedDB.
 */
export class MemoryStore implements OutboxStore {
  readonly #entries = new Map<string, OutboxEntry>();
  /** namespace → id → value */
  readonly #meta = new Map<string, Map<string, unknown>>();
  /** namespace → runId → background run record */
  readonly #background = new Map<string, Map<string, unknown>>();
  #closed = false;

  async get(key: string): Promise<OutboxEntry | undefined> {
    this.#assertOpen("get");
    const entry = this.#entries.get(key);
    return entry === undefined ? undefined : structuredClone(entry);
  }

  async put(entry: OutboxEntry): Promise<void> {
    this.#assertOpen("put");
    assertStorableEntry("put", entry);
    this.#entries.set(entry.key, cloneFor("put", entry));
  }

  async commit(entry: OutboxEntry): Promise<CommitResult> {
    this.#assertOpen("commit");
    return this.#commitNow("commit", entry);
  }

  async readAtStart(request: StartReadRequest): Promise<StartReadResult> {
    const { namespace, metaId } = request;
    this.#assertOpen("readAtStart");
    assertMetaKey("readAtStart", namespace, metaId);
    // No await between the reads and the write: that is what makes it one transaction here.
    const meta = structuredClone(this.#meta.get(namespace)?.get(metaId));
    const entries = this.#select((entry) => entry.namespace === namespace && inEntrySet(entry, "open"));
    const next = request.firstCommit(meta, entries);
    if (next === undefined) return { meta, entries };
    const commit = this.#commitNow("readAtStart", next);
    return { meta, entries: afterStartCommit(entries, next.key, commit), commit };
  }

  async listByNamespace(namespace: string, set: EntrySet = "all"): Promise<OutboxEntry[]> {
    this.#assertOpen("listByNamespace");
    return this.#select((entry) => entry.namespace === namespace && inEntrySet(entry, set));
  }

  async listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]> {
    this.#assertOpen("listByInterrupt");
    return this.#select(
      (entry) =>
        entry.namespace === namespace && entry.threadId === threadId && entry.interruptId === interruptId,
    );
  }

  async putIfAbsentForInterrupt(
    entry: OutboxEntry,
    options: PutIfAbsentOptions = {},
  ): Promise<PutIfAbsentResult> {
    const operation = "putIfAbsentForInterrupt";
    this.#assertOpen(operation);
    assertStorableEntry(operation, entry);
    // No await between the check and the insert: that is what makes it atomic here.
    const siblings = [...this.#entries.values()].filter(
      (stored) =>
        stored.namespace === entry.namespace &&
        stored.threadId === entry.threadId &&
        stored.interruptId === entry.interruptId,
    );
    const live = findLiveEntry(siblings, options.isSuperseded ?? isSupersededByDefault);
    if (live !== undefined) return { inserted: false, existing: structuredClone(live) };
    if (this.#entries.has(entry.key)) {
      throw new OutboxError(
        "storage_failed",
        `${operation} failed (ConstraintError): the key is already used`,
      );
    }
    const stored = cloneFor(operation, entry);
    this.#entries.set(entry.key, stored);
    return { inserted: true, entry: structuredClone(stored) };
  }

  async delete(key: string): Promise<boolean> {
    this.#assertOpen("delete");
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    if (!isFinalState(entry.state)) throw refusedDelete(entry);
    this.#entries.delete(key);
    return true;
  }

  async clear(namespace: string): Promise<void> {
    this.#assertOpen("clear");
    for (const [key, entry] of this.#entries) {
      if (entry.namespace === namespace) this.#entries.delete(key);
    }
    this.#meta.delete(namespace);
    this.#background.delete(namespace);
  }

  async listBackgroundRuns(namespace: string): Promise<unknown[]> {
    this.#assertOpen("listBackgroundRuns");
    return [...(this.#background.get(namespace)?.values() ?? [])].map((record) => structuredClone(record));
  }

  async putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void> {
    this.#assertOpen("putBackgroundRun");
    assertMetaKey("putBackgroundRun", namespace, runId);
    areaOf(this.#background, namespace).set(runId, cloneFor("putBackgroundRun", record));
  }

  async deleteBackgroundRun(namespace: string, runId: string): Promise<void> {
    this.#assertOpen("deleteBackgroundRun");
    assertMetaKey("deleteBackgroundRun", namespace, runId);
    this.#background.get(namespace)?.delete(runId);
  }

  async getMeta(namespace: string, id: string): Promise<unknown> {
    this.#assertOpen("getMeta");
    assertMetaKey("getMeta", namespace, id);
    const value = this.#meta.get(namespace)?.get(id);
    return value === undefined ? undefined : structuredClone(value);
  }

  async putMeta(namespace: string, id: string, value: unknown): Promise<void> {
    this.#assertOpen("putMeta");
    assertMetaKey("putMeta", namespace, id);
    areaOf(this.#meta, namespace).set(id, cloneFor("putMeta", value));
  }

  async deleteMeta(namespace: string, id: string): Promise<void> {
    this.#assertOpen("deleteMeta");
    assertMetaKey("deleteMeta", namespace, id);
    this.#meta.get(namespace)?.delete(id);
  }

  close(): void {
    this.#closed = true;
  }

  /** Compare-and-set, with no await between the read and the write: atomic here. */
  #commitNow(operation: string, entry: OutboxEntry): CommitResult {
    assertStorableEntry(operation, entry);
    const result = decideCommit(this.#entries.get(entry.key), entry);
    if (!result.committed) {
      return { committed: false, current: result.current && structuredClone(result.current) };
    }
    const stored = cloneFor(operation, result.entry);
    this.#entries.set(entry.key, stored);
    return { committed: true, entry: structuredClone(stored) };
  }

  #select(predicate: (entry: OutboxEntry) => boolean): OutboxEntry[] {
    return [...this.#entries.values()]
      .filter(predicate)
      .sort(compareEntries)
      .map((entry) => structuredClone(entry));
  }

  #assertOpen(operation: string): void {
    if (this.#closed) {
      throw new OutboxError("storage_unavailable", `${operation} failed: the store is closed`);
    }
  }
}

function areaOf(areas: Map<string, Map<string, unknown>>, namespace: string): Map<string, unknown> {
  const area = areas.get(namespace) ?? new Map<string, unknown>();
  areas.set(namespace, area);
  return area;
}

function cloneFor<T>(operation: string, value: T): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw toStorageError(operation, error);
  }
}
