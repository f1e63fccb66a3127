import { isOutboxError, OutboxError } from "../errors/outbox-error";

/**
 * Maps whatever a storage call threw into an `OutboxError`. The message names the
 * operation and the DOMException name only: browser messages can quote keys or
 * values, so they stay on `cause`.
 */
export function toStorageError(operation: string, error: unknown): OutboxError {
  if (isOutboxError(error)) return error;
  const name = errorName(error);
  if (name === "QuotaExceededError") {
    return new OutboxError("storage_quota", `${operation} failed: the storage quota is exceeded`, {
      cause: error,
    });
  }
  if (name === "SecurityError" || name === "InvalidStateError") {
    // InvalidStateError: the connection was closed (another tab upgraded the
    // database, or the browser cleared site data) under a pending operation.
    return new OutboxError("storage_unavailable", `${operation} failed: IndexedDB is unavailable (${name})`, {
      cause: error,
    });
  }
  return new OutboxError("storage_failed", `${operation} failed (${name ?? "unknown error"})`, {
    cause: error,
  });
}

/** Failures to open the database are always "unavailable": the caller falls back to memory. */
export function toOpenError(operation: string, error: unknown): OutboxError {
  if (isOutboxError(error) && error.kind === "storage_unavailable") return error;
  const name = isOutboxError(error) ? error.kind : (errorName(error) ?? "unknown error");
  return new OutboxError("storage_unavailable", `${operation} failed: IndexedDB is unavailable (${name})`, {
    cause: error,
  });
}

/** The `name` of an Error or DOMException (never its message, which may quote data). */
export function errorName(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "name" in error && typeof error.name === "string") {
    return error.name;
  }
  return undefined;
}
