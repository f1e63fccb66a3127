/**
 * The recovery contract's extensions to AG-UI 1.0, in places AG-UI leaves open (`x-` metadata,
 * `custom` capabilities, headers). Constants and types only: the first chunk imports this, so
 * no zod here (schemas: extension-schemas.ts; hand checks: extension-checks.ts).
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

// The wire objects' types, inferred from their schemas (a type-only import: no zod is loaded).
export type {
  HttpErrorBody,
  RecordedDecision,
  RecoveryCapability,
  ResumeClaimAck,
  ResumeConflict,
  ResumeReplay,
  RunStatus,
} from "./extension-schemas";

export const RECOVERY_CONTRACT_VERSION = 1;

export const RunStatusValue = {
  running: "running",
  finished: "finished",
  error: "error",
} as const;
export type RunStatusValue = (typeof RunStatusValue)[keyof typeof RunStatusValue];
