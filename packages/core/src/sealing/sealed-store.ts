import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { EntrySet, OutboxEntry } from "../outbox/entry";
import type {
  CommitResult,
  OutboxStore,
  PutIfAbsentOptions,
  PutIfAbsentResult,
} from "../outbox/outbox-store";
import { isSealedRecord, openEntry, type SealedRecord, sealEntry } from "./seal-entry";
import { type SealedEntry, SealedReason } from "./sealing-plugin";

export interface SealedStoreOptions {
  readonly onSealed: (entries: readonly SealedEntry[]) => void;
  readonly key: () => CryptoKey | undefined;
  readonly crypto: Crypto;
  readonly onClose?: () => void;
}

/**
 * A store whose answers are sealed at rest. An entry this client cannot open is withheld (never
 * sent or shown) and reported through `onSealed`, kept untouched until a key opens it. Writing
 * without a key is refused: an answer is never stored in the clear. No `readAtStart`: its write
 * is derived inside the transaction, where nothing may be awaited.
 */
export class SealedStore implements OutboxStore {
  readonly #inner: OutboxStore;
  readonly #options: SealedStoreOptions;
  readonly #withheld = new Map<string, SealedEntry>();

  constructor(inner: OutboxStore, options: SealedStoreOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  async get(key: string): Promise<OutboxEntry | undefined> {
    const record = await this.#inner.get(key);
    const opened = record && (await this.#openOrWithhold(record));
    if (record && !opened) this.#report();
    return opened;
  }

  async put(entry: OutboxEntry): Promise<void> {
    await this.#inner.put(await this.#seal(entry, "put"));
  }

  async commit(entry: OutboxEntry): Promise<CommitResult> {
    return this.#result(entry, await this.#inner.commit(await this.#seal(entry, "commit")));
  }

  async commitAll(entries: readonly OutboxEntry[]): Promise<CommitResult[]> {
    const sealed = await Promise.all(entries.map((entry) => this.#seal(entry, "commitAll")));
    const results = this.#inner.commitAll
      ? await this.#inner.commitAll(sealed)
      : await Promise.all(sealed.map((record) => this.#inner.commit(record)));
    return Promise.all(results.map((result, index) => this.#result(entries[index] as OutboxEntry, result)));
  }

  async listByNamespace(namespace: string, set: EntrySet = "all"): Promise<OutboxEntry[]> {
    const records = await this.#inner.listByNamespace(namespace, set);
    if (set === "all") this.#withheld.clear();
    const opened = await this.#openAll(records);
    this.#report();
    return opened;
  }

  async listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]> {
    const opened = await this.#openAll(await this.#inner.listByInterrupt(namespace, threadId, interruptId));
    this.#report();
    return opened;
  }

  async putIfAbsentForInterrupt(
    entry: OutboxEntry,
    options?: PutIfAbsentOptions,
  ): Promise<PutIfAbsentResult> {
    // `isSuperseded` reads the state, which stays clear.
    const result = await this.#inner.putIfAbsentForInterrupt(
      await this.#seal(entry, "putIfAbsentForInterrupt"),
      options,
    );
    if (result.inserted) return { inserted: true, entry: structuredClone(entry) };
    return { inserted: false, existing: await this.#openOrThrow(result.existing) };
  }

  async delete(key: string): Promise<boolean> {
    const deleted = await this.#inner.delete(key);
    if (this.#withheld.delete(key)) this.#report();
    return deleted;
  }

  async clear(namespace: string): Promise<void> {
    await this.#inner.clear(namespace);
    for (const [key, entry] of this.#withheld) if (entry.namespace === namespace) this.#withheld.delete(key);
    this.#report();
  }

  listBackgroundRuns(namespace: string): Promise<unknown[]> {
    return this.#inner.listBackgroundRuns(namespace);
  }

  putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void> {
    return this.#inner.putBackgroundRun(namespace, runId, record);
  }

  deleteBackgroundRun(namespace: string, runId: string): Promise<void> {
    return this.#inner.deleteBackgroundRun(namespace, runId);
  }

  getMeta(namespace: string, id: string): Promise<unknown> {
    return this.#inner.getMeta(namespace, id);
  }

  putMeta(namespace: string, id: string, value: unknown): Promise<void> {
    return this.#inner.putMeta(namespace, id, value);
  }

  deleteMeta(namespace: string, id: string): Promise<void> {
    return this.#inner.deleteMeta(namespace, id);
  }

  close(): void {
    this.#options.onClose?.();
    this.#inner.close();
  }

  async #seal(entry: OutboxEntry, operation: string): Promise<OutboxEntry> {
    try {
      // What the wrapped store would refuse (a function in the answer), refused alike: never sealed half.
      structuredClone(entry);
    } catch (cause) {
      throw new OutboxError(ErrorKind.storageFailed, `${operation}: the entry cannot be stored as it is`, {
        cause,
      });
    }
    const key = this.#options.key();
    if (!key) {
      throw new OutboxError(
        ErrorKind.sealingKeyMissing,
        "Answers are sealed at rest and no key was supplied: nothing was stored.",
      );
    }
    return (await sealEntry(entry, key, this.#options.crypto)) as unknown as OutboxEntry;
  }

  async #open(stored: OutboxEntry): Promise<OutboxEntry | SealedReason> {
    const record = stored as OutboxEntry | SealedRecord;
    // Written before sealing was turned on: the next write seals it.
    if (!isSealedRecord(record)) return record;
    const key = this.#options.key();
    if (!key) return SealedReason.keyMissing;
    try {
      return await openEntry(record, key, this.#options.crypto);
    } catch {
      return SealedReason.keyRejected;
    }
  }

  async #openOrWithhold(stored: OutboxEntry): Promise<OutboxEntry | undefined> {
    const opened = await this.#open(stored);
    if (typeof opened !== "string") {
      this.#withheld.delete(stored.key);
      return opened;
    }
    const { key, namespace, threadId, interruptId, state, createdAt } = stored;
    this.#withheld.set(key, { key, namespace, threadId, interruptId, state, createdAt, reason: opened });
    return undefined;
  }

  async #openAll(records: readonly OutboxEntry[]): Promise<OutboxEntry[]> {
    const opened = await Promise.all(records.map((record) => this.#openOrWithhold(record)));
    return opened.filter((entry): entry is OutboxEntry => entry !== undefined);
  }

  async #openOrThrow(stored: OutboxEntry): Promise<OutboxEntry> {
    const opened = await this.#openOrWithhold(stored);
    if (opened) return opened;
    this.#report();
    throw new OutboxError(
      ErrorKind.sealingKeyMissing,
      "An answer for this question is stored sealed and this client cannot open it.",
    );
  }

  async #result(written: OutboxEntry, result: CommitResult): Promise<CommitResult> {
    if (result.committed) {
      // What the wrapped store returns is the sealed record; the caller gets its own entry back.
      return {
        committed: true,
        entry: { ...structuredClone(written), revision: result.entry.revision ?? 0 },
      };
    }
    return { committed: false, current: result.current && (await this.#openOrThrow(result.current)) };
  }

  #report(): void {
    this.#options.onSealed([...this.#withheld.values()]);
  }
}
