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

/** The sections contract servers publish, as `AgentCapabilitiesSchema` declares them (tested). */
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
 * True only for a document of the sections above that the schema accepts, checked by hand.
 * `false` means "not decided here" (an unknown key, an object not as JSON.parse makes it):
 * the schema, loaded on demand, decides. May decline what the schema accepts, never the reverse.
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

/** An object one JSON.parse makes: another prototype would be copied onto a plain object. */
function isCopiedAsIs(value: unknown): value is Readonly<Record<string, unknown>> {
  return isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every index, holes included (a hole is an `undefined` item, which no check passes). */
function everyIndex(items: readonly unknown[], check: ValueCheck): boolean {
  for (let index = 0; index < items.length; index += 1) if (!check(items[index])) return false;
  return true;
}
