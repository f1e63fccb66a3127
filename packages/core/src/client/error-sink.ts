import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";

/** Where a failure the client survived came from. */
export const ErrorSource = {
  storage: "storage",
  leadership: "leadership",
  capabilities: "capabilities",
  delivery: "delivery",
  tabs: "tabs",
  background: "background",
  thread: "thread",
} as const;
export type ErrorSource = (typeof ErrorSource)[keyof typeof ErrorSource];

const STORAGE_KINDS: ReadonlySet<string> = new Set([
  ErrorKind.storageFailed,
  ErrorKind.storageQuota,
  ErrorKind.storageUnavailable,
]);

export function isStorageError(error: unknown): error is OutboxError {
  return isOutboxError(error) && STORAGE_KINDS.has(error.kind);
}

/**
 * Where failures no caller awaits go: every unawaited promise goes through `track`, so none becomes
 * an unhandled rejection. `disposed` is the client stopping, not a failure, and is dropped.
 */
export interface ErrorSink {
  report(error: unknown, source: ErrorSource): void;
  track(promise: Promise<unknown>, source: ErrorSource): void;
}

export interface ErrorSinkOptions {
  readonly onStorageError: (error: OutboxError, source: ErrorSource) => void;
  readonly onOtherError?: (error: unknown, source: ErrorSource) => void;
}

export function createErrorSink(options: ErrorSinkOptions): ErrorSink {
  const report = (error: unknown, source: ErrorSource): void => {
    if (isOutboxError(error) && error.kind === ErrorKind.disposed) return;
    if (isStorageError(error)) {
      options.onStorageError(error, source);
      return;
    }
    if (source === ErrorSource.storage) {
      options.onStorageError(
        new OutboxError(ErrorKind.storageFailed, "A storage operation failed.", { cause: error }),
        source,
      );
      return;
    }
    options.onOtherError?.(error, source);
  };
  return {
    report,
    track(promise, source) {
      promise.catch((error: unknown) => report(error, source));
    },
  };
}
