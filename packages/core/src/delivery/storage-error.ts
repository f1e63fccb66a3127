import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";

/**
 * The entry showing that storage refused a write of its delivery: a copy kept
 * in memory only, since storage is what fails. The delivery tries again after
 * a full-jitter backoff that grows while the failures go on (capped at 30 s),
 * so a broken store is never hammered (delivery-schedule.ts).
 */
export function withStorageError(entry: OutboxEntry, error: unknown): OutboxEntry {
  return {
    ...entry,
    lastError: {
      kind: isOutboxError(error) ? error.kind : ErrorKind.storageFailed,
      message: error instanceof Error ? error.message : "A storage operation failed.",
    },
  };
}
