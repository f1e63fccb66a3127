import { isDeepStrictEqual } from "node:util";
import * as classic from "@ag-ui/core/schemas";
import { expect, test } from "vitest";
import type { z } from "zod";
import * as mini from "./ag-ui-mini";

// ag-ui-mini.ts is @ag-ui/core's schemas rewritten onto zod/mini. These tests hold it
// to the original: the same exports, the same inferred types, and the same answer
// (accepted with the same data, or refused with the same issues) on generated input.

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameSchema<A extends z.core.$ZodType, B extends z.core.$ZodType> = Same<z.output<A>, z.output<B>> &
  Same<z.input<A>, z.input<B>>;

test("the rewritten schemas infer the types @ag-ui/core declares", () => {
  // Checked by the compiler: a mismatch makes the literal `true` unassignable.
  const checks: [
    SameSchema<typeof mini.EventSchema, typeof classic.EventSchema>,
    SameSchema<typeof mini.AgentCapabilitiesSchema, typeof classic.AgentCapabilitiesSchema>,
    SameSchema<typeof mini.RunAgentInputSchema, typeof classic.RunAgentInputSchema>,
    SameSchema<typeof mini.MessageSchema, typeof classic.MessageSchema>,
    SameSchema<typeof mini.InterruptSchema, typeof classic.InterruptSchema>,
    SameSchema<typeof mini.ResumeEntrySchema, typeof classic.ResumeEntrySchema>,
    SameSchema<typeof mini.RunFinishedEventSchema, typeof classic.RunFinishedEventSchema>,
    SameSchema<typeof mini.RunErrorEventSchema, typeof classic.RunErrorEventSchema>,
  ] = [true, true, true, true, true, true, true, true];
  expect(checks.every(Boolean)).toBe(true);
});

test("every schema @ag-ui/core exports has its rewrite", () => {
  const schemaNames = (module: object) =>
    Object.keys(module)
      .filter((name) => name.endsWith("Schema") || name.endsWith("Schemas"))
      .sort();
  expect(schemaNames(mini)).toEqual(schemaNames(classic));
});

interface Def {
  readonly type: string;
  readonly shape?: Record<string, Schema>;
  readonly options?: readonly Schema[];
  readonly innerType?: Schema;
  readonly element?: Schema;
  readonly values?: readonly unknown[];
  readonly entries?: Record<string, unknown>;
  readonly in?: Schema;
}
interface Schema {
  readonly _zod: { readonly def: Def };
  readonly safeParse: (value: unknown) => { success: boolean; data?: unknown; error?: { issues: unknown } };
}

/** Small deterministic PRNG (mulberry32) so a failing input can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Values that sit on the checks' edges: empty, null, non-integers, past safe integers,
// JSON Pointer look-alikes, arrays where objects go and the other way round.
const ODD: readonly unknown[] = [
  undefined,
  null,
  "",
  "x",
  "/a/~0",
  "a~2",
  0,
  -1,
  1.5,
  2 ** 60,
  true,
  [],
  ["x"],
  {},
  { a: null },
  [{}],
];

/** A value shaped by the schema most of the time, an odd one otherwise. */
function sample(schema: Schema, next: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
  if (depth > 5 || next() < 0.12) return pick(ODD);
  const def = schema._zod.def;
  const inner = (child: Schema | undefined) => (child ? sample(child, next, depth + 1) : pick(ODD));
  switch (def.type) {
    case "string":
      return pick(["s", "", "/a/b", "~1"]);
    case "number":
      return pick([0, 3, -5, 9007199254740991, 0.5]);
    case "boolean":
      return next() < 0.5;
    case "literal":
      return pick(def.values ?? []);
    case "enum":
      return pick(Object.values(def.entries ?? {}));
    case "optional":
    case "default":
      return next() < 0.3 ? undefined : inner(def.innerType);
    case "nullable":
      return next() < 0.3 ? null : inner(def.innerType);
    case "pipe":
      return inner(def.in);
    case "array":
      return Array.from({ length: Math.floor(next() * 3) }, () => inner(def.element));
    case "union":
      return inner(pick(def.options ?? []));
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const field = sample(child, next, depth + 1);
        if (field !== undefined || next() < 0.1) value[key] = field;
      }
      if (next() < 0.2) value.extra = pick(ODD);
      return value;
    }
    default:
      return next() < 0.5 ? { k: pick(ODD) } : pick(ODD);
  }
}

test("both schema sets accept the same input with the same data and refuse it with the same issues", () => {
  const names = Object.keys(classic).filter((name) => name.endsWith("Schema"));
  let accepted = 0;
  let refused = 0;
  names.forEach((name, index) => {
    const original = (classic as unknown as Record<string, Schema>)[name];
    const rewritten = (mini as unknown as Record<string, Schema>)[name];
    if (!original || !rewritten) throw new Error(`${name} is missing`);
    const next = random(index + 1);
    for (let round = 0; round < 80; round += 1) {
      const input = sample(original, next, 0);
      const expected = original.safeParse(input);
      const actual = rewritten.safeParse(input);
      // Asserted through expect only where a quick comparison differs: thousands of inputs.
      const same =
        actual.success === expected.success &&
        (expected.success
          ? isDeepStrictEqual(actual.data, expected.data)
          : isDeepStrictEqual(actual.error?.issues, expected.error?.issues));
      if (!same) {
        const context = `${name}, seed ${index + 1}, round ${round}`;
        expect(actual.success, context).toBe(expected.success);
        if (expected.success) expect(actual.data, context).toEqual(expected.data);
        else expect(actual.error?.issues, context).toEqual(expected.error?.issues);
      }
      if (expected.success) accepted += 1;
      else refused += 1;
    }
  });
  // The generator must reach both answers often, or the comparison says little.
  expect(accepted).toBeGreaterThan(names.length * 10);
  expect(refused).toBeGreaterThan(names.length * 10);
});
