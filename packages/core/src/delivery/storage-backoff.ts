import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";
import { backoffDelay } from "../retry/backoff";

/**
 * Storage refused a write of a delivery: it is tried again after a full-jitter
 * backoff that grows while the failures go on (capped at 30 s), so a broken
 * store is never hammered. The count lives in memory because storage is what
 * fails; the first write that lands clears it.
 */
export class StorageBackoff {
  readonly #random: () => number;
  /** Per key, storage failures in a row. */
  readonly #failures = new Map<string, number>();

  constructor(random: () => number) {
    this.#random = random;
  }

  /** One more failure for `key`: how long to wait before the next try. */
  failed(key: string): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    return backoffDelay(failures - 1, { random: this.#random });
  }

  /** A write for `key` landed: storage works again for it. */
  landed(key: string): void {
    this.#failures.delete(key);
  }
}

/** The entry showing the storage failure, a copy kept in memory only (storage is what fails). */
export function withStorageError(entry: OutboxEntry, error: unknown): OutboxEntry {
  return {
    ...entry,
    lastError: {
      kind: isOutboxError(error) ? error.kind : ErrorKind.storageFailed,
      message: error instanceof Error ? error.message : "A storage operation failed.",
    },
  };
}
