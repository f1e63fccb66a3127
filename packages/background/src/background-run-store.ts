import type { OutboxStore } from "@agui-outbox/core";
import { type BackgroundRunRecord, BackgroundRunRecordSchema, oldestFirst } from "./background-run-record";

/**
 * Background run records, one row per run in the outbox store's background
 * object store (keyed by [namespace, runId]). Each record write is one put:
 * token, cursor and status are never persisted apart, and two tabs starting
 * runs at the same moment write two rows, so neither run is lost (the v1
 * layout kept a list of ids that both tabs read, changed and wrote back).
 */
export class BackgroundRunStore {
  readonly #store: () => OutboxStore;
  readonly #namespace: string;

  /** `store` may be a getter: the client opens its storage after it creates the runner. */
  constructor(store: OutboxStore | (() => OutboxStore), namespace: string) {
    this.#store = typeof store === "function" ? store : () => store;
    this.#namespace = namespace;
  }

  /** Every valid record of the namespace, oldest first. Rows that do not parse are skipped. */
  async loadAll(): Promise<BackgroundRunRecord[]> {
    const records: BackgroundRunRecord[] = [];
    for (const row of await this.#store().listBackgroundRuns(this.#namespace)) {
      const parsed = BackgroundRunRecordSchema.safeParse(row);
      if (parsed.success) records.push(parsed.data);
    }
    return records.sort(oldestFirst);
  }

  /** Writes one run's record, new or not; resolves once durable. */
  put(record: BackgroundRunRecord): Promise<void> {
    return this.#store().putBackgroundRun(this.#namespace, record.runId, record);
  }

  /** Forgets a run. */
  remove(runId: string): Promise<void> {
    return this.#store().deleteBackgroundRun(this.#namespace, runId);
  }
}
