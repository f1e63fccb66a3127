import type { AnswerViolation } from "@agui-outbox/core";

/**
 * A form model generated from an interrupt's `responseSchema`: one field per
 * property of `properties.editedArgs` the card knows how to edit.
 */
export const FieldKind = {
  string: "string",
  number: "number",
  integer: "integer",
  boolean: "boolean",
  enum: "enum",
} as const;
export type FieldKind = (typeof FieldKind)[keyof typeof FieldKind];

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description: string | undefined;
  /** The allowed values of an `enum` field, as strings. */
  readonly options: readonly string[];
}

/** What an input holds: text for text-like fields, a boolean for checkboxes. */
export type FieldValue = string | boolean;
export type FormValues = Readonly<Record<string, FieldValue>>;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, (_, lower: string, upper: string) => `${lower} ${upper.toLowerCase()}`)
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function kindOf(schema: Readonly<Record<string, unknown>>): FieldKind | undefined {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string"))
    return FieldKind.enum;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return type;
  return undefined;
}

/** The `editedArgs` object schema, when the response schema declares one. */
export function editedArgsSchema(
  responseSchema: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
  const properties = responseSchema?.properties;
  if (!isRecord(properties)) return undefined;
  const edited = properties.editedArgs;
  return isRecord(edited) ? edited : undefined;
}

/** The editable fields; properties of other types (objects, arrays) are left as proposed. */
export function formFields(responseSchema: Readonly<Record<string, unknown>> | undefined): FormField[] {
  const schema = editedArgsSchema(responseSchema);
  if (!schema || !isRecord(schema.properties)) return [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const kind = kindOf(property);
    if (!kind) continue;
    fields.push({
      name,
      label: typeof property.title === "string" ? property.title : humanize(name),
      kind,
      required: required.includes(name),
      description: typeof property.description === "string" ? property.description : undefined,
      options: kind === FieldKind.enum ? (property.enum as string[]) : [],
    });
  }
  return fields;
}

/** Input values from the tool's proposed arguments (empty where none was proposed). */
export function initialValues(
  fields: readonly FormField[],
  proposed: Readonly<Record<string, unknown>>,
): FormValues {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    const value = proposed[field.name];
    if (field.kind === FieldKind.boolean) values[field.name] = value === true;
    else values[field.name] = value === undefined || value === null ? "" : String(value);
  }
  return values;
}

/**
 * Input values as the arguments to send. Numbers that do not parse stay text,
 * so the schema check reports them (`type`) instead of sending a NaN. An empty
 * optional field is left out.
 */
export function toArgs(fields: readonly FormField[], values: FormValues): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) continue;
    if (field.kind === FieldKind.boolean) {
      args[field.name] = value === true;
      continue;
    }
    const text = String(value);
    if (text === "" && !field.required) continue;
    if (field.kind === FieldKind.number || field.kind === FieldKind.integer) {
      const parsed = Number(text);
      args[field.name] = text.trim() !== "" && Number.isFinite(parsed) ? parsed : text;
    } else {
      args[field.name] = text;
    }
  }
  return args;
}

const MESSAGES: Readonly<Record<string, string>> = {
  required: "Required.",
  minLength: "Too short.",
  maxLength: "Too long.",
  type: "Wrong type of value.",
  enum: "Choose one of the listed values.",
  const: "This value is not allowed.",
  pattern: "Does not have the expected format.",
  format: "Does not have the expected format.",
  minimum: "Too small.",
  exclusiveMinimum: "Too small.",
  maximum: "Too large.",
  exclusiveMaximum: "Too large.",
  multipleOf: "Not an allowed step.",
  additionalProperties: "This field is not accepted.",
};

/** A short message for one violated keyword, phrased for the field it sits under. */
export function violationMessage(
  field: FormField | undefined,
  violation: AnswerViolation,
  value: unknown,
): string {
  if (field && (violation.keyword === "minLength" || violation.keyword === "required") && value === "") {
    return "Required.";
  }
  if (field && violation.keyword === "type") {
    if (field.kind === FieldKind.number) return "Must be a number.";
    if (field.kind === FieldKind.integer) return "Must be a whole number.";
  }
  return MESSAGES[violation.keyword] ?? `Not accepted (${violation.keyword}).`;
}

export interface FormErrors {
  /** The first message per field name. */
  readonly fields: Readonly<Record<string, string>>;
  /** Violations that name no editable field. */
  readonly form: readonly string[];
}

/** Groups violations of the payload `{approved: true, editedArgs}` by field. */
export function groupViolations(
  fields: readonly FormField[],
  violations: readonly AnswerViolation[],
  args: Readonly<Record<string, unknown>>,
): FormErrors {
  const byField: Record<string, string> = {};
  const form: string[] = [];
  for (const violation of violations) {
    const match = /^\/editedArgs\/([^/]+)/.exec(violation.path);
    const name = match?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~");
    const field = name === undefined ? undefined : fields.find((candidate) => candidate.name === name);
    if (field && name !== undefined) {
      byField[name] ??= violationMessage(field, violation, args[name] ?? "");
    } else if (violation.keyword === "required" && violation.path === "/editedArgs") {
      // The schema names no property in the violation: blame every empty required field.
      const empty = fields.filter((candidate) => candidate.required && args[candidate.name] === undefined);
      for (const candidate of empty) byField[candidate.name] ??= "Required.";
      if (empty.length === 0) form.push(violationMessage(undefined, violation, undefined));
    } else {
      form.push(violationMessage(undefined, violation, undefined));
    }
  }
  return { fields: byField, form };
}
