// `RUN_ERROR.code` and JSON error body codes. Not an enum: an unknown code stays a plain string.
export const OutcomeCode = {
  /** The occurrence was resolved by another decision; the recorded decision rides along. */
  ALREADY_RESOLVED: "APPROVAL_RESUME_ALREADY_RESOLVED",
  /** Another submission holds the claim right now; `x-resume.claimedBy` may name its run. */
  IN_PROGRESS: "APPROVAL_RESUME_IN_PROGRESS",
  /** The id was never pending in this thread and scope. */
  NOT_FOUND: "APPROVAL_RESUME_NOT_FOUND",
  /** The interrupt's `expiresAt` has passed. */
  EXPIRED: "APPROVAL_RESUME_EXPIRED",
  /** The thread has open interrupts and the request did not answer them. */
  REQUIRED: "APPROVAL_RESUME_REQUIRED",
  /** A batch answered some of the open interrupts but not all of them. */
  MISSING_INTERRUPT: "APPROVAL_RESUME_MISSING_INTERRUPT",
  /** The resume cannot be applied (servers without the contract fold several cases here). */
  INVALID: "APPROVAL_RESUME_INVALID",
  /** The payload does not match the interrupt's `responseSchema`. */
  INVALID_RESPONSE: "APPROVAL_RESUME_INVALID_RESPONSE",
  /** A tool was cut off mid-execution with no stored result: it may or may not have run. */
  INDETERMINATE: "APPROVAL_RESUME_INDETERMINATE",
  /** The resume was a cancellation (servers without the contract report it as an error). */
  CANCELLED: "APPROVAL_RESUME_CANCELLED",
  /** The approved tool could not be reached; nothing ran, retry later. */
  TOOL_UNAVAILABLE: "APPROVAL_TOOL_UNAVAILABLE",
  /** The model call after the tool failed; the tool result is kept for the retry. */
  MODEL_CALL_FAILED: "AGENT_MODEL_CALL_FAILED",

  IDEMPOTENCY_KEY_REQUIRED: "IDEMPOTENCY_KEY_REQUIRED",
  IDEMPOTENCY_KEY_REUSED: "IDEMPOTENCY_KEY_REUSED",

  BACKGROUND_TOOL_RESULT_INDETERMINATE: "BACKGROUND_TOOL_RESULT_INDETERMINATE",
  BACKGROUND_TOOL_DELIVERY_REJECTED: "BACKGROUND_TOOL_DELIVERY_REJECTED",
  BACKGROUND_POLL_IN_PROGRESS: "BACKGROUND_POLL_IN_PROGRESS",
  /** The continuation token was already advanced; poll with the newer one. */
  BACKGROUND_TOKEN_STALE: "BACKGROUND_TOKEN_STALE",
  BACKGROUND_TOKEN_UNKNOWN: "BACKGROUND_TOKEN_UNKNOWN",

  /** Request-level errors (HTTP bodies). */
  INVALID_JSON: "INVALID_JSON",
  INVALID_REQUEST: "INVALID_REQUEST",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RUN_NOT_FOUND: "RUN_NOT_FOUND",
  EVENT_LOG_EXPIRED: "EVENT_LOG_EXPIRED",
  RATE_LIMITED: "RATE_LIMITED",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
  NOT_FOUND_ROUTE: "ROUTE_NOT_FOUND",
} as const;

export type OutcomeCode = (typeof OutcomeCode)[keyof typeof OutcomeCode];

const knownCodes: ReadonlySet<string> = new Set(Object.values(OutcomeCode));

export function isKnownOutcomeCode(code: string): code is OutcomeCode {
  return knownCodes.has(code);
}
