import * as z from "zod/mini";

/**
 * The recovery contract's extensions to AG-UI 1.0. All of them ride in places
 * AG-UI leaves open (`metadata` keys prefixed `x-`, `custom` capabilities,
 * headers), so a plain AG-UI consumer ignores them.
 */
export const MetadataKey = {
  /** On every event: the SSE cursor `{runId, seq}` of the frame that carried it. */
  stream: "x-stream",
  /** On `RUN_STARTED` (claim ack), `RUN_FINISHED` (replay) and `RUN_ERROR` (conflicts). */
  resume: "x-resume",
  /** On each `ResumeEntry`: a copy of the `Idempotency-Key` header. */
  idempotencyKey: "x-idempotency-key",
  /** In `AgentCapabilities.custom`: the contract version and retention windows. */
  recovery: "x-recovery",
  /** On background run responses: the continuation token and the poll route. */
  background: "x-background",
} as const;

export const StreamCursorSchema = z.object({
  runId: z.string().check(z.minLength(1)),
  seq: z.int().check(z.positive()),
});

/** `RUN_STARTED.metadata["x-resume"]`: the occurrences are claimed for this run. */
export const ResumeClaimAckSchema = z.object({
  ack: z.literal("claimed"),
  interruptIds: z.array(z.string()),
  idempotencyKey: z.string(),
  runId: z.string(),
});
export type ResumeClaimAck = z.infer<typeof ResumeClaimAckSchema>;

/** `RUN_FINISHED.metadata["x-resume"]` on a replay of a recorded outcome. */
export const ResumeReplaySchema = z.object({
  replayed: z.literal(true),
  originalRunId: z.string(),
});
export type ResumeReplay = z.infer<typeof ResumeReplaySchema>;

/** The decision a resolved occurrence recorded, as echoed by `ALREADY_RESOLVED`. */
export const RecordedDecisionSchema = z.object({
  interruptId: z.string(),
  status: z.enum(["resolved", "cancelled"]),
  payload: z.optional(z.unknown()),
});
export type RecordedDecision = z.infer<typeof RecordedDecisionSchema>;

/** `RUN_ERROR.metadata["x-resume"]` for conflicts: who holds or held the occurrence. */
export const ResumeConflictSchema = z.object({
  recordedDecisions: z.optional(z.array(RecordedDecisionSchema)),
  /** The run that holds the claim (for `IN_PROGRESS`): re-attach to it. */
  claimedBy: z.optional(z.string()),
  originalRunId: z.optional(z.string()),
});
export type ResumeConflict = z.infer<typeof ResumeConflictSchema>;

/** `AgentCapabilities.custom["x-recovery"]`. Absent → the server has no contract. */
export const RecoveryCapabilitySchema = z.object({
  version: z.int().check(z.positive()),
  /** How long idempotency keys and outcome records are kept. */
  idempotencyWindowMs: z.int().check(z.positive()),
  /** How long a run's event log can be re-attached to. */
  eventLogRetentionMs: z.int().check(z.positive()),
  /** How long a claim survives without its run making progress. */
  claimLeaseMs: z.int().check(z.positive()),
  /** Interval between `: keepalive` comments. */
  keepaliveMs: z.int().check(z.positive()),
  background: z.optional(z.object({ pollPath: z.string() })),
});
export type RecoveryCapability = z.infer<typeof RecoveryCapabilitySchema>;

export const RECOVERY_CONTRACT_VERSION = 1;

export const RunStatusValue = {
  running: "running",
  finished: "finished",
  error: "error",
} as const;
export type RunStatusValue = (typeof RunStatusValue)[keyof typeof RunStatusValue];

/** `GET /agent/runs/{runId}`. */
export const RunStatusSchema = z.object({
  runId: z.string(),
  threadId: z.string(),
  status: z.enum(["running", "finished", "error"]),
  lastSeq: z.int().check(z.nonnegative()),
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`) once there is one. */
  terminal: z.nullable(z.record(z.string(), z.unknown())),
  continuationToken: z.nullable(z.string()),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** JSON body of every non-2xx HTTP answer of the contract. */
export const HttpErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});
export type HttpErrorBody = z.infer<typeof HttpErrorBodySchema>;
