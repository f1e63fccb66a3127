/**
 * Every failure the app can see is an `OutboxError` with a `kind` literal, so a
 * `switch (error.kind)` is exhaustive. Messages never carry answer content.
 */
export const ErrorKind = {
  /** Edited arguments violate the interrupt's `responseSchema`; nothing was enqueued. */
  invalidAnswer: "invalid_answer",
  /**
   * The JSON-Schema validator's code (loaded on first use) could not be fetched, so
   * the answer could not be checked; nothing was enqueued. Try again when online.
   */
  validatorUnavailable: "validator_unavailable",
  /** `client.background` was used without the `backgroundRuns` option. */
  backgroundRunsDisabled: "background_runs_disabled",
  /** The interrupt is not known to this client (not pending in the thread). */
  unknownInterrupt: "unknown_interrupt",
  /** IndexedDB could not be opened; the client fell back to memory. */
  storageUnavailable: "storage_unavailable",
  /** A write was refused because the origin is over its storage quota. */
  storageQuota: "storage_quota",
  /** Any other storage failure. */
  storageFailed: "storage_failed",
  /** The network failed before a response arrived. */
  network: "network",
  /** The server answered an HTTP error status. */
  http: "http",
  /** A 200 that is not an event stream (for example an HTML error page). */
  notEventStream: "not_event_stream",
  /** The SSE framing is broken (for example a frame over the size limit). */
  malformedStream: "malformed_stream",
  /** A frame's data is not JSON. */
  invalidJson: "invalid_json",
  /** JSON that is not a valid AG-UI event (including unknown event types). */
  invalidEvent: "invalid_event",
  /** The stream ended without `RUN_FINISHED` or `RUN_ERROR`. */
  streamEnded: "stream_ended",
  /** No byte arrived for the watchdog interval. */
  streamStalled: "stream_stalled",
  /** The server answered `RUN_ERROR`. */
  runError: "run_error",
  /** 401/403: the app must re-authenticate. */
  unauthorized: "unauthorized",
  /** The retry budget ran out. */
  retryBudgetExhausted: "retry_budget_exhausted",
  /**
   * The code that sends (a chunk loaded by the tab that sends) could not be
   * fetched; the answers are kept, unsent, and the load is tried again.
   */
  senderUnavailable: "sender_unavailable",
  /**
   * Answers are sealed at rest (`sealing`) and no key opens this one: none was
   * supplied yet, or another. Nothing was stored; stored answers stay sealed.
   */
  sealingKeyMissing: "sealing_key_missing",
  /** The client was disposed. */
  disposed: "disposed",
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

export interface OutboxErrorOptions {
  readonly cause?: unknown;
  readonly code?: string;
  readonly status?: number;
}

export class OutboxError extends Error {
  override readonly name = "OutboxError";
  readonly kind: ErrorKind;
  /** The server's outcome code, when there is one. */
  readonly code: string | undefined;
  /** The HTTP status, when there is one. */
  readonly status: number | undefined;

  constructor(kind: ErrorKind, message: string, options: OutboxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.code = options.code;
    this.status = options.status;
  }
}

export function isOutboxError(value: unknown): value is OutboxError {
  return value instanceof OutboxError;
}
