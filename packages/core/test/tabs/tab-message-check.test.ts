import { inspect, isDeepStrictEqual } from "node:util";
import { expect, test } from "vitest";
import { EntryState } from "../../src/outbox/entry";
import {
  parseTabEnvelope,
  TAB_PROTOCOL,
  TAB_PROTOCOL_VERSION,
  TabMessageType,
} from "../../src/tabs/tab-message";
import { OutboxEntrySchema, TabEnvelopeSchema, TabMessageSchema } from "../support/tab-message-spec";

/*
 * parseTabEnvelope is the only check a tab message gets (what fails is dropped),
 * so it must be exactly TabEnvelopeSchema: the same values accepted, the same
 * output. The candidates are read from the schema itself: at every position of
 * the envelope, down to each field of an entry and of each union member, the
 * valid values the schema describes and every value of a palette, each inside an
 * otherwise complete valid envelope; at every object, missing keys, extra keys
 * (unknown, undefined, inherited, symbol, non-enumerable, an own `__proto__`)
 * and other prototypes.
 */

interface SchemaNode {
  readonly _zod: { readonly def: Def; readonly optin?: string };
  safeParse(value: unknown, context?: { jitless?: boolean }): { success: boolean; data?: unknown };
}
interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, SchemaNode>>;
  readonly options?: readonly SchemaNode[];
  readonly innerType?: SchemaNode;
  readonly element?: SchemaNode;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
}
const node = (schema: unknown) => schema as SchemaNode;
const defOf = (schema: SchemaNode) => schema._zod.def;

/** Own `__proto__`, as JSON.parse makes it (assignment would set the prototype instead). */
function withOwnProto<T extends object>(value: T, proto: unknown = { polluted: true }): T {
  return Object.defineProperty({ ...value }, "__proto__", {
    value: proto,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
const SYMBOL = Symbol("key");

// Every kind of value, the edges of each check, and values JSON cannot carry
// (the check takes any value, so it must be as strict on those too).
const PALETTE: readonly unknown[] = [
  "",
  "x",
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53 - 1),
  -(2 ** 53),
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  null,
  true,
  false,
  undefined,
  [],
  ["x"],
  [""],
  [1],
  [null],
  [{ interruptId: "i", status: "resolved" }],
  {},
  { a: 1 },
  JSON.parse('{"__proto__":{"a":1},"b":2}'),
  Object.create(null),
  new Date(0),
  new Map([["a", 1]]),
  Symbol.for("value"),
  1n,
  () => 1,
];

/** Every literal and enum value the schema names: each discriminator, state, protocol. */
function literalsOf(schema: SchemaNode, into = new Set<unknown>()): Set<unknown> {
  const def = defOf(schema);
  for (const value of def.values ?? []) into.add(value);
  for (const value of Object.values(def.entries ?? {})) into.add(value);
  for (const child of Object.values(def.shape ?? {})) literalsOf(child, into);
  for (const child of def.options ?? []) literalsOf(child, into);
  if (def.innerType) literalsOf(def.innerType, into);
  if (def.element) literalsOf(def.element, into);
  return into;
}
const VALUES = [...PALETTE, ...literalsOf(node(TabEnvelopeSchema))];

/** The first palette values a leaf schema (string, number, unknown, custom…) accepts. */
function leafValues(schema: SchemaNode): unknown[] {
  const rich = [{ nested: { deep: [1] } }, "s", 3, 1.5, true, false];
  return rich.filter((value) => schema.safeParse(value).success).slice(0, 2);
}

/** A valid value with every optional part present (each union as its first member). */
function full(schema: SchemaNode): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, child]) => [key, full(child)]));
    case "union":
      return full(def.options?.[0] as SchemaNode);
    case "optional":
    case "nullable":
      return full(def.innerType as SchemaNode);
    case "array":
      return [full(def.element as SchemaNode), full(def.element as SchemaNode)];
    case "literal":
      return def.values?.[0];
    case "enum":
      return Object.values(def.entries ?? {}).at(-1);
    case "record":
      return { a: 1, b: { c: [true] }, "0": null };
    default:
      return leafValues(schema)[0];
  }
}

/** A valid value with only what is required. */
function minimal(schema: SchemaNode): unknown {
  const def = defOf(schema);
  if (def.type === "object") {
    return Object.fromEntries(
      Object.entries(def.shape ?? {})
        .filter(([, child]) => child._zod.optin === undefined)
        .map(([key, child]) => [key, minimal(child)]),
    );
  }
  if (def.type === "union") return minimal(def.options?.[0] as SchemaNode);
  if (def.type === "array") return [];
  if (def.type === "record") return {};
  return full(schema);
}

/** Objects that differ from `value` in their keys or prototype only. */
function objectVariants(value: Readonly<Record<string, unknown>>): unknown[] {
  const variants: unknown[] = [
    { ...value, extra: "x" },
    { ...value, extra: undefined },
    { ...value, [SYMBOL]: 1 },
    Object.defineProperty({ ...value }, "hidden", { value: 1, enumerable: false }),
    Object.defineProperty({ ...value }, SYMBOL, { value: 1, enumerable: false }),
    withOwnProto(value),
    { ...value, constructor: Array },
    { ...value, constructor: "x" },
    Object.create(value),
    Object.assign(Object.create(null), value),
    Object.assign(Object.create({ inherited: "x" }), value),
    [value],
  ];
  for (const key of Object.keys(value)) {
    const { [key]: _dropped, ...rest } = value;
    variants.push(rest, Object.assign(Object.create({ [key]: value[key] }), rest));
  }
  return variants;
}

/** Every candidate for the position `schema` holds: valid ones and the palette, with its children's. */
function candidates(schema: SchemaNode): unknown[] {
  const def = defOf(schema);
  const own = [...VALUES, minimal(schema), full(schema)];
  switch (def.type) {
    case "object": {
      const whole = full(schema) as Record<string, unknown>;
      own.push(...objectVariants(whole), ...objectVariants(minimal(schema) as Record<string, unknown>));
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        for (const value of candidates(child)) own.push({ ...whole, [key]: value });
      }
      return own;
    }
    case "union":
      return [...own, ...(def.options ?? []).flatMap(candidates)];
    case "optional":
    case "nullable":
      return [...own, ...candidates(def.innerType as SchemaNode)];
    case "array": {
      const element = def.element as SchemaNode;
      const item = full(element);
      const sparse: unknown[] = [item];
      sparse.length = 2;
      const extra = Object.assign([item], { extra: 1 });
      own.push(sparse, extra, { 0: item, length: 1 });
      for (const value of candidates(element)) own.push([item, value]);
      return own;
    }
    case "record":
      own.push(
        ...objectVariants({ a: 1, b: { c: [true] } }),
        { [SYMBOL]: 1 },
        { constructor: { prototype: [] } },
        Object.assign(Object.create(null), { a: 1 }),
        new (class Thing {
          a = 1;
        })(),
      );
      return own;
    default:
      return own;
  }
}

const show = (value: unknown) => inspect(value, { depth: 12, breakLength: Number.POSITIVE_INFINITY });

/** The check and the schema (both its compiled and its interpreted parse) agree, value for value. */
function expectSameAsSchema(candidate: unknown): boolean {
  const checked = parseTabEnvelope(candidate);
  for (const jitless of [false, true]) {
    const parsed = TabEnvelopeSchema.safeParse(candidate, { jitless });
    // Asserted only on a mismatch: tens of thousands of candidates, each cheap to compare.
    if (parsed.success !== (checked !== undefined) || !isDeepStrictEqual(parsed.data, checked)) {
      const where = `${jitless ? "interpreted" : "compiled"}: ${show(candidate)}`;
      expect(show(checked), where).toBe(show(parsed.data));
      // The same when shown, yet not equal: a prototype or a -0 differs.
      expect(isDeepStrictEqual(parsed.data, checked), where).toBe(true);
    }
  }
  return checked !== undefined;
}

const envelopeOf = (message: unknown) => ({
  protocol: TAB_PROTOCOL,
  version: TAB_PROTOCOL_VERSION,
  from: "tab-1",
  namespace: "user-1",
  message,
});

test("the schema names every message type, and each is fuzzed below", () => {
  const types = (defOf(node(TabMessageSchema)).options ?? []).map((option) => full(option));
  expect(new Set(types.map((message) => (message as { type: unknown }).type))).toEqual(
    new Set(Object.values(TabMessageType)),
  );
});

// One test per message type: each is thousands of candidates, so none runs long on a loaded machine.
for (const option of defOf(node(TabMessageSchema)).options ?? []) {
  const type = (full(option) as { type: string }).type;
  test(`${type}: every value at every position of the message: accepted exactly when the schema accepts it, as the schema outputs it`, () => {
    let accepted = 0;
    let refused = 0;
    for (const message of candidates(option)) {
      if (expectSameAsSchema(envelopeOf(message))) accepted += 1;
      else refused += 1;
    }
    // Not vacuous: both sides of each check are reached.
    expect(accepted).toBeGreaterThan(15);
    expect(refused).toBeGreaterThan(VALUES.length);
  });
}

test("the envelope's own fields and keys, and values that are no envelope at all", () => {
  let accepted = 0;
  for (const envelope of candidates(node(TabEnvelopeSchema))) if (expectSameAsSchema(envelope)) accepted += 1;
  expect(accepted).toBeGreaterThan(50);
});

test("a full entry keeps its unknown keys at every level, drops an own __proto__, and is a copy", () => {
  const entry = full(node(OutboxEntrySchema)) as Record<string, unknown>;
  const sent = withOwnProto({
    ...entry,
    future: { field: 1 },
    decision: { ...(entry.decision as object), note: "kept" },
    cursor: withOwnProto({ ...(entry.cursor as object), next: 2 }),
    recordedDecisions: [{ interruptId: "i", status: "cancelled", payload: undefined, dropped: 1 }],
  });
  const envelope = envelopeOf({ type: TabMessageType.entryChanged, entry: sent, dropped: true });
  expect(expectSameAsSchema(envelope)).toBe(true);
  const parsed = parseTabEnvelope(envelope);
  if (parsed?.message.type !== TabMessageType.entryChanged) throw new Error("not parsed");
  const received = parsed.message.entry as unknown as Record<string, unknown>;
  expect(received).not.toBe(sent);
  expect(received.future).toEqual({ field: 1 });
  expect(received.decision).toEqual({ ...(entry.decision as object), note: "kept" });
  expect(Object.hasOwn(received, "__proto__")).toBe(false);
  expect(Object.hasOwn(received.cursor as object, "__proto__")).toBe(false);
  expect(received.recordedDecisions).toEqual([{ interruptId: "i", status: "cancelled", payload: undefined }]);
  expect(Object.hasOwn((received.recordedDecisions as object[])[0] as object, "payload")).toBe(true);
  expect(Object.keys(parsed.message)).toEqual(["type", "entry"]);
  expect(received.state).toBe(Object.values(EntryState).at(-1));
});
