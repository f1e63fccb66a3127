import type { EntrySet, OutboxEntry } from "./entry";
import { MemoryStore } from "./memory-store";
import type {
  CommitResult,
  OutboxStore,
  PutIfAbsentOptions,
  PutIfAbsentResult,
  StartReadRequest,
  StartReadResult,
} from "./outbox-store";

/** What the page holds when its database goes for good: entries and background run records. */
export interface FallbackSeed {
  readonly entries: readonly OutboxEntry[];
  readonly backgroundRuns: readonly { readonly runId: string }[];
}

/**
 * A store that goes on in memory once the durable one is gone for good: `fallBack` seeds a
 * `MemoryStore` with the page's entries and revisions, so delivery and compare-and-set go on.
 */
export class FallbackStore implements OutboxStore {
  #current: OutboxStore;
  #fellBack = false;
  readonly #namespace: string;

  constructor(durable: OutboxStore, namespace: string) {
    this.#current = durable;
    this.#namespace = namespace;
  }

  get fellBack(): boolean {
    return this.#fellBack;
  }

  /** Switches to memory, once, seeded with `seed` (copied as is, revisions included). */
  async fallBack(seed: FallbackSeed): Promise<void> {
    if (this.#fellBack) return;
    this.#fellBack = true;
    const memory = new MemoryStore();
    for (const entry of seed.entries) await memory.put(entry);
    for (const record of seed.backgroundRuns) {
      await memory.putBackgroundRun(this.#namespace, record.runId, record);
    }
    const durable = this.#current;
    this.#current = memory;
    durable.close();
  }

  get(key: string): Promise<OutboxEntry | undefined> {
    return this.#current.get(key);
  }
  put(entry: OutboxEntry): Promise<void> {
    return this.#current.put(entry);
  }
  commit(entry: OutboxEntry): Promise<CommitResult> {
    return this.#current.commit(entry);
  }
  commitAll(entries: readonly OutboxEntry[]): Promise<CommitResult[]> {
    const current = this.#current as OutboxStore & {
      commitAll?: (entries: readonly OutboxEntry[]) => Promise<CommitResult[]>;
    };
    if (current.commitAll) return current.commitAll(entries);
    return Promise.all(entries.map((entry) => current.commit(entry)));
  }
  readAtStart(request: StartReadRequest): Promise<StartReadResult> {
    const current = this.#current as OutboxStore & Required<Pick<OutboxStore, "readAtStart">>;
    return current.readAtStart(request);
  }
  listByNamespace(namespace: string, set?: EntrySet): Promise<OutboxEntry[]> {
    return this.#current.listByNamespace(namespace, set);
  }
  listByInterrupt(namespace: string, threadId: string, interruptId: string): Promise<OutboxEntry[]> {
    return this.#current.listByInterrupt(namespace, threadId, interruptId);
  }
  putIfAbsentForInterrupt(entry: OutboxEntry, options?: PutIfAbsentOptions): Promise<PutIfAbsentResult> {
    return this.#current.putIfAbsentForInterrupt(entry, options);
  }
  delete(key: string): Promise<boolean> {
    return this.#current.delete(key);
  }
  clear(namespace: string): Promise<void> {
    return this.#current.clear(namespace);
  }
  listBackgroundRuns(namespace: string): Promise<unknown[]> {
    return this.#current.listBackgroundRuns(namespace);
  }
  putBackgroundRun(namespace: string, runId: string, record: unknown): Promise<void> {
    return this.#current.putBackgroundRun(namespace, runId, record);
  }
  deleteBackgroundRun(namespace: string, runId: string): Promise<void> {
    return this.#current.deleteBackgroundRun(namespace, runId);
  }
  getMeta(namespace: string, id: string): Promise<unknown> {
    return this.#current.getMeta(namespace, id);
  }
  putMeta(namespace: string, id: string, value: unknown): Promise<void> {
    return this.#current.putMeta(namespace, id, value);
  }
  deleteMeta(namespace: string, id: string): Promise<void> {
    return this.#current.deleteMeta(namespace, id);
  }
  close(): void {
    this.#current.close();
  }
}
