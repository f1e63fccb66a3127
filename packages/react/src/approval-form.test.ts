import { checkAnswer } from "@agui-outbox/core/validator";
import { expect, test } from "vitest";
import { FieldKind, formFields, groupViolations, initialValues, toArgs } from "./approval-form";

const schema = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    editedArgs: {
      type: "object",
      properties: {
        target: { type: "string", minLength: 1, description: "Where to deploy." },
        replicas: { type: "integer", minimum: 1, title: "Replica count" },
        ratio: { type: "number" },
        dryRun: { type: "boolean" },
        region: { enum: ["eu", "us"] },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["target"],
      additionalProperties: false,
    },
  },
  required: ["approved"],
} as const;

test("formFields builds one labelled field per editable property and skips the rest", () => {
  const fields = formFields(schema);
  expect(fields.map((field) => [field.name, field.kind, field.label, field.required])).toEqual([
    ["target", FieldKind.string, "Target", true],
    ["replicas", FieldKind.integer, "Replica count", false],
    ["ratio", FieldKind.number, "Ratio", false],
    ["dryRun", FieldKind.boolean, "Dry run", false],
    ["region", FieldKind.enum, "Region", false],
  ]);
  expect(fields[0]?.description).toBe("Where to deploy.");
  expect(fields[4]?.options).toEqual(["eu", "us"]);
});

test("formFields gives no fields without an editedArgs schema", () => {
  expect(formFields(undefined)).toEqual([]);
  expect(formFields({ type: "object", properties: { approved: { type: "boolean" } } })).toEqual([]);
});

test("initialValues and toArgs round-trip the proposed arguments", () => {
  const fields = formFields(schema);
  const proposed = { target: "prod", replicas: 3, ratio: 0.5, dryRun: true, region: "eu" };
  const values = initialValues(fields, proposed);
  expect(values).toEqual({ target: "prod", replicas: "3", ratio: "0.5", dryRun: true, region: "eu" });
  expect(toArgs(fields, values)).toEqual(proposed);
});

test("toArgs leaves unparseable numbers as text and drops empty optional fields", () => {
  const fields = formFields(schema);
  const args = toArgs(fields, { target: "", replicas: "three", ratio: "", dryRun: false, region: "" });
  expect(args).toEqual({ target: "", replicas: "three", dryRun: false });
});

test("groupViolations maps schema violations to the field the person typed in", () => {
  const fields = formFields(schema);
  const args = toArgs(fields, { target: "", replicas: "0.5", ratio: "x", dryRun: false, region: "" });
  const check = checkAnswer({ approved: true, editedArgs: args }, schema);
  if (check.valid) throw new Error("expected violations");
  const errors = groupViolations(fields, check.violations, args);
  expect(errors.fields).toEqual({
    target: "Required.",
    replicas: "Must be a whole number.",
    ratio: "Must be a number.",
  });
  expect(errors.form).toEqual([]);
});

test("groupViolations blames an empty required field for a parent-level required violation", () => {
  const fields = formFields(schema);
  const errors = groupViolations(fields, [{ path: "/editedArgs", keyword: "required" }], {});
  expect(errors.fields).toEqual({ target: "Required." });
});
