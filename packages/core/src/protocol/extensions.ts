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

/** `RUN_STARTED.metadata["x-resume"]`: the occurrences are claimed for this run. */
export interface ResumeClaimAck {
  ack: "claimed";
  interruptIds: string[];
  idempotencyKey: string;
  runId: string;
}

/** `RUN_FINISHED.metadata["x-resume"]` on a replay of a recorded outcome. */
export interface ResumeReplay {
  replayed: true;
  originalRunId: string;
}

/** The decision a resolved occurrence recorded, as echoed by `ALREADY_RESOLVED`. */
export interface RecordedDecision {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
}

/** `RUN_ERROR.metadata["x-resume"]` for conflicts: who holds or held the occurrence. */
export interface ResumeConflict {
  recordedDecisions?: RecordedDecision[] | undefined;
  /** The run that holds the claim (for `IN_PROGRESS`): re-attach to it. */
  claimedBy?: string | undefined;
  originalRunId?: string | undefined;
}

/** `AgentCapabilities.custom["x-recovery"]`. Absent → the server has no contract. */
export interface RecoveryCapability {
  version: number;
  /** How long idempotency keys and outcome records are kept. */
  idempotencyWindowMs: number;
  /** How long a run's event log can be re-attached to. */
  eventLogRetentionMs: number;
  /** How long a claim survives without its run making progress. */
  claimLeaseMs: number;
  /** Interval between `: keepalive` comments. */
  keepaliveMs: number;
  background?: { pollPath: string } | undefined;
}

export const RECOVERY_CONTRACT_VERSION = 1;

export const RunStatusValue = {
  running: "running",
  finished: "finished",
  error: "error",
} as const;
export type RunStatusValue = (typeof RunStatusValue)[keyof typeof RunStatusValue];

/** `GET /agent/runs/{runId}`. */
export interface RunStatus {
  runId: string;
  threadId: string;
  status: RunStatusValue;
  lastSeq: number;
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`) once there is one. */
  terminal: Record<string, unknown> | null;
  continuationToken: string | null;
}

/** JSON body of every non-2xx HTTP answer of the contract. */
export interface HttpErrorBody {
  error: {
    code: string;
    message: string;
  };
}
