import * as z from "zod/mini";
import type { StreamCursor } from "./stream-cursor";

/** The contract's zod schemas, for servers and tests; the client checks by hand (extension-checks.ts). */
export const StreamCursorSchema = z.object({
  runId: z.string().check(z.minLength(1)),
  seq: z.int().check(z.positive()),
});

export const ResumeClaimAckSchema = z.object({
  ack: z.literal("claimed"),
  interruptIds: z.array(z.string()),
  idempotencyKey: z.string(),
  runId: z.string(),
});

export const ResumeReplaySchema = z.object({
  replayed: z.literal(true),
  originalRunId: z.string(),
});

export const RecordedDecisionSchema = z.object({
  interruptId: z.string(),
  status: z.enum(["resolved", "cancelled"]),
  payload: z.optional(z.unknown()),
});

export const ResumeConflictSchema = z.object({
  recordedDecisions: z.optional(z.array(RecordedDecisionSchema)),
  /** The run that holds the claim (for `IN_PROGRESS`): re-attach to it. */
  claimedBy: z.optional(z.string()),
  originalRunId: z.optional(z.string()),
});

export const RecoveryCapabilitySchema = z.object({
  version: z.int().check(z.positive()),
  /** How long idempotency keys and outcome records are kept. */
  idempotencyWindowMs: z.int().check(z.positive()),
  eventLogRetentionMs: z.int().check(z.positive()),
  /** How long a claim survives without its run making progress. */
  claimLeaseMs: z.int().check(z.positive()),
  keepaliveMs: z.int().check(z.positive()),
  background: z.optional(z.object({ pollPath: z.string() })),
});

export const RunStatusSchema = z.object({
  runId: z.string(),
  threadId: z.string(),
  status: z.enum(["running", "finished", "error"]),
  lastSeq: z.int().check(z.nonnegative()),
  terminal: z.nullable(z.record(z.string(), z.unknown())),
  continuationToken: z.nullable(z.string()),
});

export const HttpErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});

/** `RUN_STARTED.metadata["x-resume"]`: the occurrences are claimed for this run. */
export type ResumeClaimAck = z.infer<typeof ResumeClaimAckSchema>;
/** `RUN_FINISHED.metadata["x-resume"]` on a replay of a recorded outcome. */
export type ResumeReplay = z.infer<typeof ResumeReplaySchema>;
/** The decision a resolved occurrence recorded, as echoed by `ALREADY_RESOLVED`. */
export type RecordedDecision = z.infer<typeof RecordedDecisionSchema>;
/** `RUN_ERROR.metadata["x-resume"]` for conflicts: who holds or held the occurrence. */
export type ResumeConflict = z.infer<typeof ResumeConflictSchema>;
/** `AgentCapabilities.custom["x-recovery"]`; absent, the server has no contract. */
export type RecoveryCapability = z.infer<typeof RecoveryCapabilitySchema>;
/** `GET /agent/runs/{runId}`. */
export type RunStatus = z.infer<typeof RunStatusSchema>;
/** JSON body of every non-2xx HTTP answer of the contract. */
export type HttpErrorBody = z.infer<typeof HttpErrorBodySchema>;

// The cursor type lives with its id format; a field changed on one side fails here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const cursorMatchesSchema: Same<Readonly<z.infer<typeof StreamCursorSchema>>, StreamCursor> = true;
void cursorMatchesSchema;
