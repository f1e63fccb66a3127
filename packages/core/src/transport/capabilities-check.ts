import type { AgentCapabilities } from "../protocol/index";
import { isJsonObject } from "../stream/simple-event-check";

/** A declared key's check; `undefined` (the key left out) passes unless the key is required. */
type ValueCheck = (value: unknown) => boolean;
interface SectionShape {
  readonly fields: Readonly<Record<string, ValueCheck>>;
  readonly required?: readonly string[];
}

const isBoolean: ValueCheck = (value) => typeof value === "boolean";
const isString: ValueCheck = (value) => typeof value === "string";
const booleans = (...names: readonly string[]): SectionShape => ({
  fields: Object.fromEntries(names.map((name) => [name, isBoolean])),
});

/** `ToolSchema`: a name and a description; parameters any value but null; metadata an object. */
export const TOOL_SHAPE: SectionShape = {
  fields: {
    name: isString,
    description: isString,
    parameters: (value) => value !== null,
    metadata: isJsonObject,
  },
  required: ["name", "description"],
};

/**
 * The sections this check knows, each as `AgentCapabilitiesSchema` declares it:
 * what servers of the recovery contract publish (packages/server's
 * capabilitiesOf, the mock's fixedCapabilities). capabilities-check.test.ts
 * reads the schema to hold each shape to it.
 */
export const CAPABILITY_SECTIONS: ReadonlyMap<string, SectionShape> = new Map<string, SectionShape>([
  [
    "identity",
    {
      fields: {
        name: isString,
        type: isString,
        description: isString,
        version: isString,
        provider: isString,
        documentationUrl: isString,
        metadata: isJsonObject,
      },
    },
  ],
  ["transport", booleans("streaming", "websocket", "httpBinary", "pushNotifications", "resumable")],
  [
    "tools",
    {
      fields: {
        supported: isBoolean,
        items: (items) => Array.isArray(items) && everyIndex(items, (tool) => fitsShape(tool, TOOL_SHAPE)),
        parallelCalls: isBoolean,
        clientProvided: isBoolean,
      },
    },
  ],
  [
    "humanInTheLoop",
    booleans("supported", "approvals", "interventions", "feedback", "interrupts", "approveWithEdits"),
  ],
]);

/**
 * True only when `value` is a capabilities document made of the sections above
 * (and `custom`, any object) and `AgentCapabilitiesSchema` accepts it, checked by
 * hand; its output is then the document as it is. `false` means "not decided
 * here", never "invalid": a key this check does not know (another section, a
 * field added upstream, an own `__proto__`) or an object not as JSON.parse makes
 * it leaves the document to the schema,
 * loaded on demand (load-capabilities-validator.ts). So this may decline what
 * the schema accepts but never accepts what it refuses.
 */
export function isCommonCapabilities(value: unknown): value is AgentCapabilities {
  if (!isCopiedAsIs(value)) return false;
  for (const key in value) {
    const section = value[key];
    if (key === "custom") {
      if (section !== undefined && !isJsonObject(section)) return false;
      continue;
    }
    const shape = CAPABILITY_SECTIONS.get(key);
    if (shape === undefined) return false;
    if (section !== undefined && !fitsShape(section, shape)) return false;
  }
  return true;
}

/** An object with only declared keys, each passing its check (or left out when not required). */
function fitsShape(value: unknown, shape: SectionShape): boolean {
  if (!isCopiedAsIs(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(shape.fields, key)) return false;
    const field = value[key];
    if (field !== undefined && !shape.fields[key]?.(field)) return false;
  }
  return (shape.required ?? []).every((key) => value[key] !== undefined);
}

/**
 * An object the schema's copy equals: one JSON.parse makes. Another prototype
 * (a class instance, `Object.create(null)`) would be copied onto a plain object.
 */
function isCopiedAsIs(value: unknown): value is Readonly<Record<string, unknown>> {
  return isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every index, holes included (a hole is an `undefined` item, which no check passes). */
function everyIndex(items: readonly unknown[], check: ValueCheck): boolean {
  for (let index = 0; index < items.length; index += 1) if (!check(items[index])) return false;
  return true;
}
