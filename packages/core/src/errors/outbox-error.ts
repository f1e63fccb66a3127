/** Every failure the app sees is an `OutboxError` with a `kind`; messages never carry answer content. */
export const ErrorKind = {
  /** Edited arguments violate the interrupt's `responseSchema`; nothing was enqueued. */
  invalidAnswer: "invalid_answer",
  /** The answer validator's chunk could not be fetched; nothing was enqueued. */
  validatorUnavailable: "validator_unavailable",
  /** Background runs (`@agui-outbox/background`) used without being attached to exactly one client. */
  backgroundRunsDisabled: "background_runs_disabled",
  /** The interrupt is not known to this client (not pending in the thread). */
  unknownInterrupt: "unknown_interrupt",
  /** IndexedDB could not be opened; the client fell back to memory. */
  storageUnavailable: "storage_unavailable",
  /** A write was refused because the origin is over its storage quota. */
  storageQuota: "storage_quota",
  storageFailed: "storage_failed",
  network: "network",
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
  runError: "run_error",
  /** 401/403: the app must re-authenticate. */
  unauthorized: "unauthorized",
  retryBudgetExhausted: "retry_budget_exhausted",
  /** No sealing key opens this answer (none yet, or another); nothing was stored. */
  sealingKeyMissing: "sealing_key_missing",
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
