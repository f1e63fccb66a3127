import type { OutboxEntry } from "./entry";
import type { CommitResult, OutboxStore } from "./outbox-store";

interface Pending {
  readonly entry: OutboxEntry;
  readonly resolve: (result: CommitResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: entry transitions asked for while a strict transaction is being
 * flushed, or in the same task, go to storage together in one transaction, so a
 * thousand entries changing at once cost a few flushes instead of a thousand.
 *
 *   commit(a) ──► queued ──(end of task, nothing in flight)──► commitAll([a, b, …])
 *   commit(b) ──► queued            ▲                              │ done
 *                                   └──── next batch, if any ◄─────┘
 *
 * No write waits longer than alone: an idle moment's first write goes at the end of its task,
 * and IndexedDB runs read-write transactions on one store one at a time anyway. Each commit is
 * judged on its own; a failed batch is retried entry by entry. Stores without `commitAll` commit one by one.
 */
export class CommitGroup {
  readonly #store: OutboxStore;
  #queued: Pending[] = [];
  #flushing = false;
  #scheduled = false;

  constructor(store: OutboxStore) {
    this.#store = store;
  }

  commit(entry: OutboxEntry): Promise<CommitResult> {
    if (this.#store.commitAll === undefined) return this.#store.commit(entry);
    return new Promise<CommitResult>((resolve, reject) => {
      this.#queued.push({ entry, resolve, reject });
      if (this.#flushing || this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        void this.#flush();
      });
    });
  }

  async #flush(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#queued.length > 0) {
        const batch = this.#takeBatch();
        await this.#write(batch);
      }
    } finally {
      this.#flushing = false;
    }
  }

  #takeBatch(): Pending[] {
    const keys = new Set<string>();
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const pending of this.#queued) {
      if (keys.has(pending.entry.key)) later.push(pending);
      else {
        keys.add(pending.entry.key);
        batch.push(pending);
      }
    }
    this.#queued = later;
    return batch;
  }

  async #write(batch: readonly Pending[]): Promise<void> {
    const commitAll = this.#store.commitAll;
    if (batch.length > 1 && commitAll !== undefined) {
      try {
        const results = await commitAll.call(
          this.#store,
          batch.map((pending) => pending.entry),
        );
        for (const [index, pending] of batch.entries()) pending.resolve(results[index] as CommitResult);
        return;
      } catch {
        // Retried one by one below: each entry gets its own verdict and its own error.
      }
    }
    await Promise.all(
      batch.map((pending) => this.#store.commit(pending.entry).then(pending.resolve, pending.reject)),
    );
  }
}
