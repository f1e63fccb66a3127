import { inspect, isDeepStrictEqual } from "node:util";
import { expect, test } from "vitest";
import {
  EXTENSION_SHAPES,
  parseHttpErrorBody,
  parseRecordedDecision,
  parseRecoveryCapability,
  parseResumeClaimAck,
  parseResumeConflict,
  parseResumeReplay,
  parseRunStatus,
  parseStreamCursor,
} from "./extension-checks";
import {
  HttpErrorBodySchema,
  RecordedDecisionSchema,
  RecoveryCapabilitySchema,
  ResumeClaimAckSchema,
  ResumeConflictSchema,
  ResumeReplaySchema,
  RunStatusSchema,
  StreamCursorSchema,
} from "./extension-schemas";

// Each hand check against the schema it stands for: the same verdict on every
// candidate, and the same output (a fresh copy with only the declared keys).
const CHECKS = {
  StreamCursorSchema: parseStreamCursor,
  ResumeClaimAckSchema: parseResumeClaimAck,
  ResumeReplaySchema: parseResumeReplay,
  RecordedDecisionSchema: parseRecordedDecision,
  ResumeConflictSchema: parseResumeConflict,
  RecoveryCapabilitySchema: parseRecoveryCapability,
  RunStatusSchema: parseRunStatus,
  HttpErrorBodySchema: parseHttpErrorBody,
} as const satisfies Record<keyof typeof EXTENSION_SHAPES, (value: unknown) => unknown>;
type SchemaName = keyof typeof CHECKS;
const schemas: Record<SchemaName, { safeParse(value: unknown): { success: boolean; data?: unknown } }> = {
  StreamCursorSchema,
  ResumeClaimAckSchema,
  ResumeReplaySchema,
  RecordedDecisionSchema,
  ResumeConflictSchema,
  RecoveryCapabilitySchema,
  RunStatusSchema,
  HttpErrorBodySchema,
};
const NAMES = Object.keys(CHECKS) as SchemaName[];

/** The part of a zod/mini schema's definition these tests walk. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, { readonly _zod: { readonly def: SchemaDef } }>>;
  readonly innerType?: { readonly _zod: { readonly def: SchemaDef } };
  readonly element?: { readonly _zod: { readonly def: SchemaDef } };
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
}
const defOf = (schema: unknown): SchemaDef => (schema as { _zod: { def: SchemaDef } })._zod.def;

/**
 * Valid values for a schema, read from its definition: each choice of an enum,
 * null and a value for a nullable, present and left out for an optional.
 */
function validValues(def: SchemaDef): unknown[] {
  switch (def.type) {
    case "string":
      return ["s-1"];
    case "number":
      return [1, 2 ** 53 - 1];
    case "literal":
      return [...(def.values ?? [])];
    case "enum":
      return Object.values(def.entries ?? {});
    case "unknown":
      return [{ any: "value" }, null];
    case "record":
      return [{ type: "RUN_FINISHED", threadId: "t", runId: "r" }, {}];
    case "nullable":
      return [null, ...validValues(defOf(def.innerType))];
    case "optional":
      return [ABSENT, ...validValues(defOf(def.innerType))];
    case "array":
      return [[], validValues(defOf(def.element)).filter((value) => value !== ABSENT)];
    case "object":
      return validObjects(def);
    default:
      throw new Error(`no valid values for a ${def.type} schema`);
  }
}

const ABSENT = Symbol("absent");

/** One object per variant of each field, the other fields at their first valid value. */
function validObjects(def: SchemaDef): Record<string, unknown>[] {
  const fields = Object.entries(def.shape ?? {}).map(
    ([key, schema]) => [key, validValues(defOf(schema))] as const,
  );
  const first = (): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (const [key, values] of fields) if (values[0] !== ABSENT) object[key] = values[0];
    return object;
  };
  const objects = [first()];
  for (const [key, values] of fields) {
    for (const value of values.slice(1)) objects.push(withField(first(), key, value));
  }
  return objects;
}

function withField(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  if (value === ABSENT) delete copy[key];
  // An own key, as JSON.parse makes it, not the prototype an assignment would set.
  else Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutPrototype(): void {}
withoutPrototype.prototype = null;

class Instance {
  readonly runId = "r";
  readonly seq = 1;
}

// Every kind of JSON value, the edges of the checks, and values JSON cannot carry
// (a check takes any value, so it must be as strict on those too).
const PALETTE: readonly unknown[] = [
  "",
  "x",
  "claimed",
  "resolved",
  "running",
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  null,
  true,
  false,
  [],
  ["x"],
  ["x", 1],
  // biome-ignore lint/suspicious/noSparseArray: a hole is an undefined item to the schema.
  [, "x"],
  {},
  { interruptId: "i", status: "resolved" },
  { pollPath: "/p", extra: 1 },
  { code: "C", message: "m" },
  { type: "RUN_ERROR", message: "m", nested: { deep: [1] }, empty: undefined },
  JSON.parse('{"__proto__":{"x":1},"kept":1}'),
  Object.create(null),
  { [Symbol("key")]: 1 },
  new Date(0),
  new Instance(),
  { constructor: "not a function", runId: "r", seq: 1 },
  { constructor: withoutPrototype, runId: "r", seq: 1 },
  ABSENT,
  undefined,
];

/** Asserts the check's verdict and output are the schema's; true when both accept. */
function expectSameAsSchema(name: SchemaName, candidate: unknown): boolean {
  const parsed = (
    schemas[name] as { safeParse(value: unknown): { success: boolean; data?: unknown } }
  ).safeParse(candidate);
  const output = CHECKS[name](candidate);
  const same = parsed.success
    ? output !== undefined && isDeepStrictEqual(output, parsed.data)
    : output === undefined;
  // Asserted only on a mismatch: thousands of candidates, each cheap to compare.
  // isDeepStrictEqual, not toStrictEqual: it also compares prototypes.
  if (!same) {
    const shown = (value: unknown) => inspect(value, { showHidden: true, depth: 4 });
    expect.fail(`${name}: ${shown(candidate)}: check gave ${shown(output)}, schema ${shown(parsed)}`);
  }
  // A copy, never the candidate itself: the schema's output is a new object.
  if (output !== undefined) expect(output).not.toBe(candidate);
  return parsed.success;
}

test("each hand check knows exactly the fields its schema declares", () => {
  for (const name of NAMES) {
    expect(Object.keys(EXTENSION_SHAPES[name]), name).toEqual(Object.keys(defOf(schemas[name]).shape ?? {}));
  }
});

for (const name of NAMES) {
  test(`${name}: every palette value in every field, one and two fields at a time, extra and missing keys: the schema's verdict and output`, () => {
    let checked = 0;
    let accepted = 0;
    const check = (candidate: unknown) => {
      checked += 1;
      if (expectSameAsSchema(name, candidate)) accepted += 1;
    };
    const bases = validObjects(defOf(schemas[name]));
    const keys = [...Object.keys(defOf(schemas[name]).shape ?? {}), "extra", "__proto__", "toString"];
    for (const base of bases) {
      check(base);
      for (const key of keys) {
        for (const value of PALETTE) {
          const one = withField(base, key, value);
          check(one);
          for (const second of keys) {
            if (second === key) continue;
            for (const other of [ABSENT, "", 7, null, {}, [], undefined])
              check(withField(one, second, other));
          }
        }
      }
      // The nested objects' own fields, one at a time.
      for (const [key, nested] of Object.entries(base)) {
        const inner = Array.isArray(nested) ? nested[0] : nested;
        if (typeof inner !== "object" || inner === null) continue;
        for (const innerKey of [...Object.keys(inner), "extra"]) {
          for (const value of PALETTE) {
            const changed = withField(inner as Record<string, unknown>, innerKey, value);
            check(withField(base, key, Array.isArray(nested) ? [changed] : changed));
          }
        }
      }
    }
    for (const value of PALETTE) check(value);
    // Not vacuous: the valid variants are accepted, and most candidates are not.
    expect(checked).toBeGreaterThan(2_000);
    expect(accepted).toBeGreaterThan(50);
    expect(checked - accepted).toBeGreaterThan(1_000);
  });
}

test("an own __proto__ key is left out of the copy, as the schema leaves it", () => {
  const ack = JSON.parse(
    '{"ack":"claimed","interruptIds":["i"],"idempotencyKey":"k","runId":"r","__proto__":{"polluted":true}}',
  );
  const output = parseResumeClaimAck(ack);
  expect(output).toEqual({ ack: "claimed", interruptIds: ["i"], idempotencyKey: "k", runId: "r" });
  expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
  const status = parseRunStatus({
    runId: "r",
    threadId: "t",
    status: "finished",
    lastSeq: 3,
    terminal: JSON.parse('{"type":"RUN_FINISHED","__proto__":{"polluted":true}}'),
    continuationToken: null,
  });
  expect(status?.terminal).toEqual({ type: "RUN_FINISHED" });
  expect(Object.hasOwn(status?.terminal ?? {}, "__proto__")).toBe(false);
});
