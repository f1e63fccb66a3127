import { expect, test } from "vitest";
import { checkAnswer, InvalidAnswerError } from "./validate-answer";

const deploySchema = {
  type: "object",
  required: ["approved"],
  additionalProperties: false,
  properties: {
    approved: { type: "boolean" },
    editedArgs: {
      type: "object",
      required: ["target"],
      additionalProperties: false,
      properties: { target: { type: "string", minLength: 1 } },
    },
  },
};

test("a payload that matches the schema is valid", () => {
  expect(checkAnswer({ approved: true, editedArgs: { target: "prod" } }, deploySchema)).toEqual({
    valid: true,
  });
});

test("edited arguments that violate the schema are located by path and keyword", () => {
  const check = checkAnswer({ approved: true, editedArgs: { target: "" } }, deploySchema);
  expect(check).toEqual({ valid: false, violations: [{ path: "/editedArgs/target", keyword: "minLength" }] });
});

test("a wrong type and an unexpected key are both reported", () => {
  const check = checkAnswer({ approved: true, editedArgs: { target: 7, region: "eu" } }, deploySchema);
  expect(check.valid).toBe(false);
  if (check.valid) return;
  expect(check.violations).toContainEqual({ path: "/editedArgs/target", keyword: "type" });
  expect(check.violations).toContainEqual({ path: "/editedArgs", keyword: "additionalProperties" });
});

test("without a schema any payload is accepted", () => {
  expect(checkAnswer({ anything: 1 }, undefined)).toEqual({ valid: true });
});

test("the error names where the answer is wrong but never what the person typed", () => {
  const secret = "prod-secret-target-name";
  const check = checkAnswer({ approved: "yes", editedArgs: { target: 42, note: secret } }, deploySchema);
  if (check.valid) throw new Error("expected a violation");
  const error = new InvalidAnswerError(check.violations);
  expect(error.kind).toBe("invalid_answer");
  expect(error.message).toContain("/approved");
  expect(error.message).not.toContain(secret);
  expect(error.message).not.toContain("42");
});

test("copies of one schema share a validator, and a schema that differs is checked by its own rules", () => {
  const strict = (maxLength: number) => ({
    type: "object",
    properties: { target: { type: "string", maxLength } },
    required: ["target"],
  });
  // Two interrupts of one tool each carry their own copy of the same schema.
  expect(checkAnswer({ target: "prod" }, strict(10))).toEqual({ valid: true });
  expect(checkAnswer({ target: "prod" }, strict(10))).toEqual({ valid: true });
  // One character of difference in the text is another schema.
  expect(checkAnswer({ target: "prod" }, strict(3))).toMatchObject({
    valid: false,
    violations: [{ path: "/target", keyword: "maxLength" }],
  });
  // More distinct schemas than are kept by text: every one still applies its own rules.
  for (let length = 4; length < 80; length += 1) {
    expect(checkAnswer({ target: "x".repeat(length) }, strict(length)).valid).toBe(true);
    expect(checkAnswer({ target: "x".repeat(length + 1) }, strict(length)).valid).toBe(false);
  }
});
