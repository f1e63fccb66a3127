import * as z from "zod/mini";

/**
 * Background runs answer `202` with a {@link BackgroundResponse}; the client polls with its
 * continuation token. A failed poll leaves the token current, so re-polling resumes.
 */
export const BackgroundStatus = {
  queued: "queued",
  inProgress: "in_progress",
  /** Waiting for the person: the run ended on an interrupt and goes on once all are answered. */
  interrupted: "interrupted",
  completed: "completed",
  failed: "failed",
} as const;
export type BackgroundStatus = (typeof BackgroundStatus)[keyof typeof BackgroundStatus];

/** Body of `POST {agent}/background/poll`. */
export const BackgroundPollRequestSchema = z.object({
  continuationToken: z.string().check(z.minLength(1)),
});
export type BackgroundPollRequest = z.infer<typeof BackgroundPollRequestSchema>;

/** Answer to a background start or poll. */
export const BackgroundResponseSchema = z.object({
  runId: z.string(),
  threadId: z.string(),
  status: z.enum(["queued", "in_progress", "interrupted", "completed", "failed"]),
  /** Poll with this next; null once the run is completed or failed. */
  continuationToken: z.nullable(z.string()),
  /** AG-UI events since the polled token, each carrying its `x-stream` cursor. */
  events: z.array(z.record(z.string(), z.unknown())),
  /** The run's last event seq (the cursor to persist). */
  lastSeq: z.int().check(z.nonnegative()),
  /** Why a failed run failed (`BACKGROUND_TOOL_RESULT_INDETERMINATE`, `BACKGROUND_TOOL_DELIVERY_REJECTED`). */
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
});
export type BackgroundResponse = z.infer<typeof BackgroundResponseSchema>;

/** `RUN_STARTED.metadata["x-background"]` of a background run. */
export const BackgroundStartSchema = z.object({
  continuationToken: z.string(),
  pollPath: z.string(),
});
export type BackgroundStart = z.infer<typeof BackgroundStartSchema>;
