import { inspect, isDeepStrictEqual } from "node:util";
import { startMockServer } from "@agui-outbox/mock-server";
import { createContractServer, MemoryStore } from "@agui-outbox/server";
import { expect, test } from "vitest";
import { AgentCapabilitiesMiniSchema } from "../protocol/public";
import { CAPABILITY_SECTIONS, isCommonCapabilities, TOOL_SHAPE } from "./capabilities-check";

/** The part of a zod/mini schema's definition these tests walk. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly innerType?: unknown;
  readonly element?: unknown;
}
const defOf = (schema: unknown): SchemaDef => (schema as { _zod: { def: SchemaDef } })._zod.def;
/** The object schema under `optional(...)` and `array(...)`. */
function objectDef(schema: unknown): SchemaDef {
  const def = defOf(schema);
  if (def.type === "optional") return objectDef(def.innerType);
  if (def.type === "array") return objectDef(def.element);
  return def;
}
const SCHEMA_SECTIONS = defOf(AgentCapabilitiesMiniSchema).shape ?? {};
const keysOf = (schema: unknown) => (schema === undefined ? [] : Object.keys(objectDef(schema).shape ?? {}));

// The documents servers of the recovery contract publish: the server library's and the mock's.
const TOOL = {
  name: "deploy",
  description: "Deploy a service",
  parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
};
const SERVED = {
  identity: { name: "agent", type: "mock", version: "0.1.0" },
  transport: { streaming: true, resumable: true },
  tools: { supported: true, items: [TOOL, { name: "noop", description: "noop" }] },
  humanInTheLoop: { supported: true, approvals: true, interrupts: true, approveWithEdits: true },
  custom: {
    "x-recovery": {
      version: 1,
      idempotencyWindowMs: 86_400_000,
      eventLogRetentionMs: 3_600_000,
      claimLeaseMs: 30_000,
      keepaliveMs: 15_000,
      background: { pollPath: "/agent/background/poll" },
    },
  },
};

class Instance {
  readonly streaming = true;
}

// Every kind of JSON value, the edges of the checks, and values JSON cannot carry.
const PALETTE: readonly unknown[] = [
  "",
  "x",
  0,
  -0,
  1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  null,
  true,
  false,
  [],
  ["x"],
  // biome-ignore lint/suspicious/noSparseArray: a hole is an undefined item to the schema.
  [, TOOL],
  [TOOL],
  [TOOL, null],
  [{ ...TOOL, parameters: null }],
  [{ name: "t" }],
  {},
  { nested: { deep: [1] } },
  { streaming: true },
  JSON.parse('{"__proto__":{"x":1},"kept":1}'),
  Object.create(null),
  new Date(0),
  new Instance(),
  undefined,
];
const ABSENT = Symbol("absent");

function withField(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  if (value === ABSENT) delete copy[key];
  // An own key, as JSON.parse makes it, not the prototype an assignment would set.
  else Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The check may decline anything, but what it accepts the schema must accept, unchanged. */
function expectNoLooserThanSchema(candidate: unknown): boolean {
  const accepted = isCommonCapabilities(candidate);
  if (accepted) {
    const parsed = AgentCapabilitiesMiniSchema.safeParse(candidate);
    // isDeepStrictEqual, not toStrictEqual: it also compares prototypes.
    if (!parsed.success || !isDeepStrictEqual(parsed.data, candidate)) {
      expect.fail(
        `accepted ${inspect(candidate, { depth: 5 })}, schema gave ${inspect(parsed, { depth: 5 })}`,
      );
    }
  }
  return accepted;
}

test("each section the hand check knows has exactly the fields the schema declares for it", () => {
  for (const [section, shape] of CAPABILITY_SECTIONS) {
    expect(Object.keys(shape.fields), section).toEqual(keysOf(SCHEMA_SECTIONS[section]));
  }
  expect(Object.keys(TOOL_SHAPE.fields)).toEqual(keysOf(objectDef(SCHEMA_SECTIONS.tools).shape?.items));
  // And custom, the one section taken as any object, is the schema's custom object.
  expect(defOf(SCHEMA_SECTIONS.custom).type).toBe("optional");
  expect(Object.keys(SCHEMA_SECTIONS)).toEqual(
    expect.arrayContaining([...CAPABILITY_SECTIONS.keys(), "custom"]),
  );
});

test("every palette value in every section, every field and every tool field: never looser than the schema", () => {
  let checked = 0;
  let accepted = 0;
  const check = (candidate: unknown) => {
    checked += 1;
    if (expectNoLooserThanSchema(candidate)) accepted += 1;
  };
  const sections = [...Object.keys(SCHEMA_SECTIONS), "extra", "__proto__", "toString"];
  const values = [...PALETTE, ABSENT];
  for (const section of sections) {
    for (const value of values) {
      const one = withField(SERVED, section, value);
      check(one);
      for (const second of sections) {
        if (second !== section)
          for (const other of [ABSENT, {}, null, "x"]) check(withField(one, second, other));
      }
    }
    const given = (SERVED as Record<string, unknown>)[section];
    const base = typeof given === "object" && given !== null ? (given as Record<string, unknown>) : {};
    const declared = Object.hasOwn(SCHEMA_SECTIONS, section) ? keysOf(SCHEMA_SECTIONS[section]) : [];
    for (const field of [...declared, "extra", "__proto__"]) {
      for (const value of values) check(withField(SERVED, section, withField(base, field, value)));
    }
  }
  for (const field of [...keysOf(objectDef(SCHEMA_SECTIONS.tools).shape?.items), "extra", "__proto__"]) {
    for (const value of values) {
      const items = [withField(TOOL, field, value)];
      check(withField(SERVED, "tools", { ...SERVED.tools, items }));
    }
  }
  for (const value of values) check(value);
  // Not vacuous: many variants are taken by hand, and many are not.
  expect(checked).toBeGreaterThan(3_000);
  expect(accepted).toBeGreaterThan(300);
  expect(checked - accepted).toBeGreaterThan(1_000);
});

test("sections and fields the hand check does not know are left to the schema, which may accept them", () => {
  for (const declined of [
    { ...SERVED, output: { structuredOutput: true } },
    { ...SERVED, extra: 1 },
    { ...SERVED, identity: { ...SERVED.identity, extra: 1 } },
    { ...SERVED, tools: { items: [{ ...TOOL, extra: 1 }] } },
    JSON.parse('{"transport":{"streaming":true},"__proto__":{}}'),
  ]) {
    expect(isCommonCapabilities(declined)).toBe(false);
    expect(AgentCapabilitiesMiniSchema.safeParse(declined).success).toBe(true);
  }
});

test("the documents the server library and the mock serve are checked by hand", async () => {
  const tools = {
    deploy: { description: TOOL.description, parameters: TOOL.parameters, execute: () => "ok" },
    noop: { execute: () => "ok" },
  };
  const agent = () => [];
  const background = { respond: () => [] };
  for (const options of [
    { store: new MemoryStore(), agent, tools },
    { store: new MemoryStore(), agent, identity: { name: "agent", version: "2.0.0" }, background },
  ]) {
    const contract = createContractServer(options);
    const { capabilitiesOf } = await import("@agui-outbox/server");
    expect(isCommonCapabilities(capabilitiesOf(contract.engine))).toBe(true);
    expect(expectNoLooserThanSchema(JSON.parse(JSON.stringify(capabilitiesOf(contract.engine))))).toBe(true);
    await contract.close();
  }
  const mock = await startMockServer({ port: 0 });
  try {
    const served: unknown = await (await fetch(`${mock.url}/agent/capabilities`)).json();
    expect(expectNoLooserThanSchema(served)).toBe(true);
  } finally {
    await mock.close();
  }
});
