/** Header names used by the recovery contract. Lower-case: fetch normalises them anyway. */
export const Header = {
  idempotencyKey: "idempotency-key",
  lastEventId: "last-event-id",
  retryAfter: "retry-after",
  contentType: "content-type",
} as const;

export const EVENT_STREAM_CONTENT_TYPE = "text/event-stream";
export const JSON_CONTENT_TYPE = "application/json";
