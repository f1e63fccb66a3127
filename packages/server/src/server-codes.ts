/**
 * Error codes the server library answers with beyond the protocol's
 * `OutcomeCode`s, in the same `{"error": {"code", "message"}}` body.
 */
export const ServerCode = {
  /** 401: the app's `identify` found no identity on the request. */
  UNAUTHENTICATED: "UNAUTHENTICATED",
  /** 400: a threadId, runId, Idempotency-Key or path id breaks the id rule (see `ID_RULE`). */
  INVALID_ID: "INVALID_ID",
  /** 409: the runId was created by another thread; a new run needs a new runId. */
  RUN_ID_TAKEN: "RUN_ID_TAKEN",
  /** 408: the request's body did not arrive within `bodyTimeoutMs`. */
  REQUEST_TIMEOUT: "REQUEST_TIMEOUT",
} as const;
export type ServerCode = (typeof ServerCode)[keyof typeof ServerCode];
