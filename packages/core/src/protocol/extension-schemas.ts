import * as z from "zod/mini";
import type {
  HttpErrorBody,
  RecordedDecision,
  RecoveryCapability,
  ResumeClaimAck,
  ResumeConflict,
  ResumeReplay,
  RunStatus,
} from "./extensions";
import type { StreamCursor } from "./stream-cursor";

/**
 * The zod schemas of the recovery contract's extensions (extensions.ts has the
 * keys, constants and types). Exported from `@agui-outbox/core/protocol` for
 * servers and tests; the client's own modules check these objects by hand
 * (extension-checks.ts, whose test holds each check to its schema here).
 */
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
  claimedBy: z.optional(z.string()),
  originalRunId: z.optional(z.string()),
});

export const RecoveryCapabilitySchema = z.object({
  version: z.int().check(z.positive()),
  idempotencyWindowMs: z.int().check(z.positive()),
  eventLogRetentionMs: z.int().check(z.positive()),
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

// Compile-time drift checks: each type in extensions.ts is exactly what its schema
// parses to, so a field changed on one side only fails the type check.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typesMatchSchemas: [
  Same<Readonly<z.infer<typeof StreamCursorSchema>>, StreamCursor>,
  Same<z.infer<typeof ResumeClaimAckSchema>, ResumeClaimAck>,
  Same<z.infer<typeof ResumeReplaySchema>, ResumeReplay>,
  Same<z.infer<typeof RecordedDecisionSchema>, RecordedDecision>,
  Same<z.infer<typeof ResumeConflictSchema>, ResumeConflict>,
  Same<z.infer<typeof RecoveryCapabilitySchema>, RecoveryCapability>,
  Same<z.infer<typeof RunStatusSchema>, RunStatus>,
  Same<z.infer<typeof HttpErrorBodySchema>, HttpErrorBody>,
] = [true, true, true, true, true, true, true, true];
void typesMatchSchemas;
