import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";

/** A refused write shown on the entry, in memory only; retried with a capped backoff. */
export function withStorageError(entry: OutboxEntry, error: unknown): OutboxEntry {
  return {
    ...entry,
    lastError: {
      kind: isOutboxError(error) ? error.kind : ErrorKind.storageFailed,
      message: error instanceof Error ? error.message : "A storage operation failed.",
    },
  };
}
