import { isJsonObject } from "../stream/simple-event-check";
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
 * The recovery contract's wire objects, checked by hand: each function gives
 * exactly the verdict and the output of its schema in extension-schemas.ts (the
 * parsed copy, or `undefined` where the schema fails), so the client's first
 * chunk needs no zod. extension-checks.test.ts reads each schema and holds its
 * check to it. As the schemas do, an object keeps only its declared keys (a
 * fresh copy), an optional key given as `undefined` stays so, and an integer is
 * a safe integer.
 */

/** One declared key: the check of its value, which returns the value's output or `INVALID`. */
type FieldCheck = (value: unknown) => unknown;
const INVALID: unique symbol = Symbol("invalid");
const OPTIONAL = Symbol("optional");
interface OptionalField {
  readonly [OPTIONAL]: FieldCheck;
}
type Shape = Readonly<Record<string, FieldCheck | OptionalField>>;

/** `z.object(shape)`: a copy holding only the declared keys, or `INVALID`. */
function objectOf(shape: Shape): FieldCheck {
  return (value) => {
    if (!isJsonObject(value)) return INVALID;
    const copy: Record<string, unknown> = {};
    for (const key in shape) {
      const field = shape[key] as FieldCheck | OptionalField;
      const present = key in value;
      const given = value[key];
      if (typeof field !== "function") {
        if (!present) continue;
        if (given === undefined) {
          copy[key] = undefined;
          continue;
        }
      }
      const output = (typeof field === "function" ? field : field[OPTIONAL])(given);
      if (output === INVALID) return INVALID;
      copy[key] = output;
    }
    return copy;
  };
}

const optional = (check: FieldCheck): OptionalField => ({ [OPTIONAL]: check });
const string: FieldCheck = (value) => (typeof value === "string" ? value : INVALID);
const nonEmptyString: FieldCheck = (value) =>
  typeof value === "string" && value.length > 0 ? value : INVALID;
const positiveInt: FieldCheck = (value) =>
  Number.isSafeInteger(value) && (value as number) > 0 ? value : INVALID;
const nonNegativeInt: FieldCheck = (value) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? value : INVALID;
const oneOf =
  (...choices: readonly unknown[]): FieldCheck =>
  (value) =>
    choices.includes(value) ? value : INVALID;
const nullable =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === null ? null : check(value);
const anyValue: FieldCheck = (value) => value;

/** `z.array(item)`: a copy of each item's output; a hole is an `undefined` item. */
function arrayOf(item: FieldCheck): FieldCheck {
  return (value) => {
    if (!Array.isArray(value)) return INVALID;
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index += 1) {
      const output = item(value[index]);
      if (output === INVALID) return INVALID;
      copy.push(output);
    }
    return copy;
  };
}

/**
 * `z.record(z.string(), z.unknown())`: a plain object (zod's test, which turns
 * away class instances), copied key by key without `__proto__`; a symbol key
 * fails the key schema.
 */
const stringRecord: FieldCheck = (value) => {
  if (!isJsonObject(value) || !hasPlainPrototype(value)) return INVALID;
  const copy: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key === "symbol") return INVALID;
    copy[key] = value[key];
  }
  return copy;
};

function hasPlainPrototype(value: Readonly<Record<string, unknown>>): boolean {
  const maker = value.constructor;
  if (typeof maker !== "function") return true;
  const prototype: unknown = maker.prototype;
  return isJsonObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}

/** The shapes, by schema name: the test reads them to compare their keys with the schemas'. */
export const EXTENSION_SHAPES = {
  StreamCursorSchema: { runId: nonEmptyString, seq: positiveInt },
  ResumeClaimAckSchema: {
    ack: oneOf("claimed"),
    interruptIds: arrayOf(string),
    idempotencyKey: string,
    runId: string,
  },
  ResumeReplaySchema: { replayed: oneOf(true), originalRunId: string },
  RecordedDecisionSchema: {
    interruptId: string,
    status: oneOf("resolved", "cancelled"),
    payload: optional(anyValue),
  },
  ResumeConflictSchema: {
    recordedDecisions: optional(arrayOf((value) => recordedDecision(value))),
    claimedBy: optional(string),
    originalRunId: optional(string),
  },
  RecoveryCapabilitySchema: {
    version: positiveInt,
    idempotencyWindowMs: positiveInt,
    eventLogRetentionMs: positiveInt,
    claimLeaseMs: positiveInt,
    keepaliveMs: positiveInt,
    background: optional(objectOf({ pollPath: string })),
  },
  RunStatusSchema: {
    runId: string,
    threadId: string,
    status: oneOf("running", "finished", "error"),
    lastSeq: nonNegativeInt,
    terminal: nullable(stringRecord),
    continuationToken: nullable(string),
  },
  HttpErrorBodySchema: { error: objectOf({ code: string, message: string }) },
} as const satisfies Readonly<Record<string, Shape>>;

const recordedDecision = objectOf(EXTENSION_SHAPES.RecordedDecisionSchema);

/** The parse of `check` as a function: its output, or `undefined` where the schema fails. */
function parser<T>(shape: Shape): (value: unknown) => T | undefined {
  const check = objectOf(shape);
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
export const parseRecordedDecision = /* @__PURE__ */ parser<RecordedDecision>(
  EXTENSION_SHAPES.RecordedDecisionSchema,
);
export const parseResumeConflict = /* @__PURE__ */ parser<ResumeConflict>(
  EXTENSION_SHAPES.ResumeConflictSchema,
);
export const parseRecoveryCapability = /* @__PURE__ */ parser<RecoveryCapability>(
  EXTENSION_SHAPES.RecoveryCapabilitySchema,
);
export const parseRunStatus = /* @__PURE__ */ parser<RunStatus>(EXTENSION_SHAPES.RunStatusSchema);
export const parseHttpErrorBody = /* @__PURE__ */ parser<HttpErrorBody>(EXTENSION_SHAPES.HttpErrorBodySchema);
