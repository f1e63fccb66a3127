import type {
  HttpErrorBody,
  RecordedDecision,
  RecoveryCapability,
  ResumeClaimAck,
  ResumeConflict,
  ResumeReplay,
  RunStatus,
} from "./extensions";
import {
  anyValue,
  arrayOf,
  type Check,
  count,
  INVALID,
  nonEmptyString,
  nullable,
  objectOf,
  oneOf,
  optionalOrUndefined,
  positiveCount,
  Rest,
  record,
  type ShapeOf,
  string,
} from "./shape-check";
import type { StreamCursor } from "./stream-cursor";

// The contract's wire objects checked by hand, exactly as extension-schemas.ts (its test holds them).

const recordedDecision: ShapeOf<RecordedDecision> = {
  interruptId: string,
  status: oneOf(["resolved", "cancelled"]),
  payload: optionalOrUndefined(anyValue),
};

/** The shapes, by schema name: the test reads them to compare their keys with the schemas'. */
export const EXTENSION_SHAPES = {
  StreamCursorSchema: { runId: nonEmptyString, seq: positiveCount } satisfies ShapeOf<StreamCursor>,
  ResumeClaimAckSchema: {
    ack: oneOf(["claimed"]),
    interruptIds: arrayOf(string),
    idempotencyKey: string,
    runId: string,
  } satisfies ShapeOf<ResumeClaimAck>,
  ResumeReplaySchema: { replayed: oneOf([true]), originalRunId: string } satisfies ShapeOf<ResumeReplay>,
  RecordedDecisionSchema: recordedDecision,
  ResumeConflictSchema: {
    recordedDecisions: optionalOrUndefined(arrayOf(objectOf(recordedDecision, Rest.strip))),
    claimedBy: optionalOrUndefined(string),
    originalRunId: optionalOrUndefined(string),
  } satisfies ShapeOf<ResumeConflict>,
  RecoveryCapabilitySchema: {
    version: positiveCount,
    idempotencyWindowMs: positiveCount,
    eventLogRetentionMs: positiveCount,
    claimLeaseMs: positiveCount,
    keepaliveMs: positiveCount,
    background: optionalOrUndefined(objectOf({ pollPath: string }, Rest.strip)),
  } satisfies ShapeOf<RecoveryCapability>,
  RunStatusSchema: {
    runId: string,
    threadId: string,
    status: oneOf(["running", "finished", "error"]),
    lastSeq: count,
    terminal: nullable(record),
    continuationToken: nullable(string),
  } satisfies ShapeOf<RunStatus>,
  HttpErrorBodySchema: {
    error: objectOf({ code: string, message: string }, Rest.strip),
  } satisfies ShapeOf<HttpErrorBody>,
} as const;

/** A parse: the schema's output, or `undefined` where the schema fails. */
function parser<T>(shape: ShapeOf<T>): (value: unknown) => T | undefined {
  const check: Check = objectOf(shape, Rest.strip);
  return (value) => {
    const output = check(value);
    return output === INVALID ? undefined : (output as T);
  };
}

/** `metadata["x-stream"]`: the frame's cursor echoed in the event. */
export const parseStreamCursor = /* @__PURE__ */ parser<StreamCursor>(EXTENSION_SHAPES.StreamCursorSchema);
export const parseResumeClaimAck = /* @__PURE__ */ parser<ResumeClaimAck>(
  EXTENSION_SHAPES.ResumeClaimAckSchema,
);
export const parseResumeReplay = /* @__PURE__ */ parser<ResumeReplay>(EXTENSION_SHAPES.ResumeReplaySchema);
export const parseRecordedDecision = /* @__PURE__ */ parser<RecordedDecision>(recordedDecision);
export const parseResumeConflict = /* @__PURE__ */ parser<ResumeConflict>(
  EXTENSION_SHAPES.ResumeConflictSchema,
);
export const parseRecoveryCapability = /* @__PURE__ */ parser<RecoveryCapability>(
  EXTENSION_SHAPES.RecoveryCapabilitySchema,
);
export const parseRunStatus = /* @__PURE__ */ parser<RunStatus>(EXTENSION_SHAPES.RunStatusSchema);
export const parseHttpErrorBody = /* @__PURE__ */ parser<HttpErrorBody>(EXTENSION_SHAPES.HttpErrorBodySchema);
