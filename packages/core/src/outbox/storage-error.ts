import { isOutboxError, OutboxError } from "../errors/outbox-error";

/** A storage throw as an `OutboxError` naming only operation and DOMException (messages stay on `cause`). */
export function toStorageError(operation: string, error: unknown): OutboxError {
  if (isOutboxError(error)) return error;
  const name = errorName(error);
  if (name === "QuotaExceededError") {
    return new OutboxError("storage_quota", `${operation} failed: the storage quota is exceeded`, {
      cause: error,
    });
  }
  if (name === "SecurityError" || name === "InvalidStateError") {
    // InvalidStateError: the connection closed under a pending operation (an upgrade, site data cleared).
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
