import * as z from "zod/mini";
import type { OutboxStore } from "../outbox/outbox-store";
import { type BackgroundRunRecord, BackgroundRunRecordSchema } from "./background-run-record";

/** Metadata id of a namespace's list of background run ids. */
export const BACKGROUND_INDEX_META_ID = "background-runs";

/** Metadata id of one run's record. */
export function backgroundRunMetaId(runId: string): string {
  return `background-run:${runId}`;
}

const IndexSchema = z.array(z.string().check(z.minLength(1)));

/**
 * Background run records in the outbox store's metadata, one value per run
 * plus an index of run ids per namespace. Each record write is one `putMeta`:
 * token, cursor and status are never persisted apart.
 */
export class BackgroundRunStore {
  readonly #store: () => OutboxStore;
  readonly #namespace: string;
  /** Index updates are read-modify-write: run them one after another. */
  #indexQueue: Promise<unknown> = Promise.resolve();

  /** `store` may be a getter: the client opens its storage after it creates the runner. */
  constructor(store: OutboxStore | (() => OutboxStore), namespace: string) {
    this.#store = typeof store === "function" ? store : () => store;
    this.#namespace = namespace;
  }

  /** Every valid record of the namespace, oldest first. Ids without a (valid) record are skipped. */
  async loadAll(): Promise<BackgroundRunRecord[]> {
    const records: BackgroundRunRecord[] = [];
    for (const runId of await this.#readIndex()) {
      const parsed = BackgroundRunRecordSchema.safeParse(
        await this.#store().getMeta(this.#namespace, backgroundRunMetaId(runId)),
      );
      if (parsed.success && parsed.data.runId === runId) records.push(parsed.data);
    }
    return records.sort((a, b) => a.createdAt - b.createdAt || (a.runId < b.runId ? -1 : 1));
  }

  /**
   * Writes a new run: the index first, then the record. A page that dies between
   * the two leaves an id without a record (skipped on load), never a record no
   * reload can find.
   */
  async insert(record: BackgroundRunRecord): Promise<void> {
    await this.#updateIndex((ids) => (ids.includes(record.runId) ? ids : [...ids, record.runId]));
    await this.put(record);
  }

  /** Overwrites one run's record; resolves once durable. */
  put(record: BackgroundRunRecord): Promise<void> {
    return this.#store().putMeta(this.#namespace, backgroundRunMetaId(record.runId), record);
  }

  /** Forgets a run: its record, then its id. */
  async remove(runId: string): Promise<void> {
    await this.#store().deleteMeta(this.#namespace, backgroundRunMetaId(runId));
    await this.#updateIndex((ids) => ids.filter((id) => id !== runId));
  }

  async #readIndex(): Promise<string[]> {
    const parsed = IndexSchema.safeParse(
      await this.#store().getMeta(this.#namespace, BACKGROUND_INDEX_META_ID),
    );
    return parsed.success ? parsed.data : [];
  }

  #updateIndex(update: (ids: string[]) => string[]): Promise<void> {
    const next = this.#indexQueue.then(async () => {
      const ids = await this.#readIndex();
      await this.#store().putMeta(this.#namespace, BACKGROUND_INDEX_META_ID, update(ids));
    });
    this.#indexQueue = next.catch(() => {});
    return next;
  }
}
