import { type OutputUnit, Validator } from "@cfworker/json-schema";
import type { AnswerCheck, AnswerViolation } from "./answer-check";

// `@agui-outbox/core/validator`, and the chunk `loadAnswerValidator()` loads: the one
// module that imports the JSON-Schema library, so nothing else pulls it in.
export {
  type AnswerCheck,
  type AnswerValidator,
  type AnswerViolation,
  InvalidAnswerError,
} from "./answer-check";

// Compiled once per schema object (a card validates per keystroke) and once per schema text
// (each interrupt carries its own copy; compiling cost several times the check).
const validators = new WeakMap<object, Validator>();
const byText = new Map<string, Validator>();
const MAX_SCHEMA_TEXTS = 32;

function textOf(schema: Readonly<Record<string, unknown>>): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    // Not JSON (a cycle, a BigInt): compiled on its own, never shared.
    return undefined;
  }
}

function validatorFor(schema: Readonly<Record<string, unknown>>): Validator {
  const known = validators.get(schema);
  if (known) return known;
  const text = textOf(schema);
  let validator = text === undefined ? undefined : byText.get(text);
  if (!validator) {
    // @cfworker/json-schema interprets the schema instead of compiling it to code,
    // so it runs under a Content-Security-Policy without 'unsafe-eval'.
    validator = new Validator(schema, "2020-12", false);
    if (text !== undefined) {
      if (byText.size >= MAX_SCHEMA_TEXTS) byText.delete(byText.keys().next().value as string);
      byText.set(text, validator);
    }
  }
  validators.set(schema, validator);
  return validator;
}

// The leaf units are the useful ones: one per (path, keyword).
function toViolations(errors: readonly OutputUnit[]): AnswerViolation[] {
  const seen = new Set<string>();
  const violations: AnswerViolation[] = [];
  for (const unit of errors) {
    if (unit.keyword === "properties" || unit.keyword === "allOf" || unit.keyword === "$ref") continue;
    const path = unit.instanceLocation.replace(/^#/, "") || "/";
    const id = `${path} ${unit.keyword}`;
    if (seen.has(id)) continue;
    seen.add(id);
    violations.push({ path, keyword: unit.keyword });
  }
  return violations;
}

/** Checks a payload against a `responseSchema`; without one, AG-UI leaves the shape open. */
export function checkAnswer(
  payload: unknown,
  responseSchema: Readonly<Record<string, unknown>> | undefined,
): AnswerCheck {
  if (!responseSchema) return { valid: true };
  const result = validatorFor(responseSchema).validate(payload);
  if (result.valid) return { valid: true };
  const violations = toViolations(result.errors);
  return {
    valid: false,
    violations: violations.length > 0 ? violations : [{ path: "/", keyword: "schema" }],
  };
}
