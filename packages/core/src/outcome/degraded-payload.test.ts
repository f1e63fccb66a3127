import { expect, test } from "vitest";
import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import {
  buildContractResolution,
  buildDegradedResolution,
  buildResumeResolution,
  declaresEditedArgs,
} from "./degraded-payload";

const withEditedArgs = {
  type: "object",
  properties: { approved: { type: "boolean" }, editedArgs: { type: "object" } },
};
const flatSchema = {
  type: "object",
  properties: { approved: { type: "boolean" }, target: { type: "string" } },
};

test("contract: an approval is {approved: true}, edits nested as editedArgs", () => {
  expect(buildContractResolution({ kind: "approve" })).toEqual({
    status: "resolved",
    payload: { approved: true },
  });
  expect(buildContractResolution({ kind: "approve", editedArgs: { target: "staging" } })).toEqual({
    status: "resolved",
    payload: { approved: true, editedArgs: { target: "staging" } },
  });
});

test("contract: a rejection is {approved: false}, with the reason when given and the schema declares it", () => {
  expect(buildContractResolution({ kind: "reject" })).toEqual({
    status: "resolved",
    payload: { approved: false },
  });
  const withReason = { type: "object", properties: { approved: {}, reason: { type: "string" } } };
  expect(buildContractResolution({ kind: "reject", reason: "wrong env" }, withReason)).toEqual({
    status: "resolved",
    payload: { approved: false, reason: "wrong env" },
  });
  // A closed schema without `reason` would refuse the answer: the reason stays with the entry.
  const closed = { type: "object", properties: { approved: {} }, additionalProperties: false };
  for (const schema of [closed, undefined])
    expect(buildContractResolution({ kind: "reject", reason: "wrong env" }, schema)).toEqual({
      status: "resolved",
      payload: { approved: false },
    });
});

test("a cancellation carries no payload, for both generations", () => {
  expect(buildContractResolution({ kind: "cancel" })).toEqual({ status: "cancelled" });
  expect(buildDegradedResolution({ kind: "cancel" }, withEditedArgs)).toEqual({ status: "cancelled" });
});

test("degraded: both approved and accepted are sent", () => {
  expect(buildDegradedResolution({ kind: "approve" }, undefined)).toEqual({
    status: "resolved",
    payload: { approved: true, accepted: true },
  });
  expect(
    buildDegradedResolution(
      { kind: "reject", reason: "no" },
      { type: "object", properties: { reason: { type: "string" } } },
    ),
  ).toEqual({
    status: "resolved",
    payload: { approved: false, accepted: false, reason: "no" },
  });
});

test("degraded: a closed schema that declares only `accepted` (Agent Framework 1.0) gets only `accepted`", () => {
  const acceptedOnly = {
    type: "object",
    properties: { accepted: { type: "boolean" }, target: { type: "string" } },
    required: ["accepted"],
    additionalProperties: false,
  };
  expect(
    buildDegradedResolution({ kind: "approve", editedArgs: { target: "staging" } }, acceptedOnly),
  ).toEqual({
    status: "resolved",
    payload: { accepted: true, target: "staging" },
  });
  expect(buildDegradedResolution({ kind: "reject" }, acceptedOnly)).toEqual({
    status: "resolved",
    payload: { accepted: false },
  });
  // Open, or closed without naming either flag: both, as DESIGN.md says.
  const open = { ...acceptedOnly, additionalProperties: true };
  const namesNeither = {
    type: "object",
    properties: { target: { type: "string" } },
    additionalProperties: false,
  };
  for (const schema of [open, namesNeither]) {
    expect(buildDegradedResolution({ kind: "approve" }, schema)).toEqual({
      status: "resolved",
      payload: { approved: true, accepted: true },
    });
  }
});

test("degraded: edits go under editedArgs only when the responseSchema declares it", () => {
  const decision = { kind: "approve", editedArgs: { target: "staging", replicas: 2 } } as const;
  expect(buildDegradedResolution(decision, withEditedArgs)).toEqual({
    status: "resolved",
    payload: { approved: true, accepted: true, editedArgs: { target: "staging", replicas: 2 } },
  });
});

test("degraded: without a declared editedArgs, edits are flat keys next to the flags", () => {
  const decision = { kind: "approve", editedArgs: { target: "staging", replicas: 2 } } as const;
  for (const schema of [flatSchema, undefined, { type: "object" }]) {
    expect(buildDegradedResolution(decision, schema)).toEqual({
      status: "resolved",
      payload: { target: "staging", replicas: 2, approved: true, accepted: true },
    });
  }
});

test("degraded: flat edits that would overwrite a flag are refused with a typed error that quotes no value", () => {
  let caught: unknown;
  try {
    buildDegradedResolution({ kind: "approve", editedArgs: { accepted: "secret-value" } }, flatSchema);
  } catch (error) {
    caught = error;
  }
  expect(isOutboxError(caught)).toBe(true);
  if (!isOutboxError(caught)) return;
  expect(caught.kind).toBe(ErrorKind.invalidAnswer);
  expect(caught.message).not.toContain("secret-value");
  // Nested edits cannot collide, so the same answer is fine when the schema declares editedArgs.
  expect(
    buildDegradedResolution({ kind: "approve", editedArgs: { accepted: "x" } }, withEditedArgs),
  ).toMatchObject({
    payload: { approved: true, accepted: true, editedArgs: { accepted: "x" } },
  });
});

test("declaresEditedArgs reads only the schema's own top-level properties", () => {
  expect(declaresEditedArgs(withEditedArgs)).toBe(true);
  expect(declaresEditedArgs(flatSchema)).toBe(false);
  expect(declaresEditedArgs(undefined)).toBe(false);
  expect(declaresEditedArgs("editedArgs")).toBe(false);
  expect(declaresEditedArgs({ properties: ["editedArgs"] })).toBe(false);
  expect(declaresEditedArgs({ properties: Object.create({ editedArgs: {} }) })).toBe(false);
  expect(declaresEditedArgs({ properties: { nested: { properties: { editedArgs: {} } } } })).toBe(false);
});

test("buildResumeResolution picks the rules by server generation", () => {
  const decision = { kind: "approve", editedArgs: { target: "prod" } } as const;
  expect(buildResumeResolution(decision, { serverKind: "contract", responseSchema: flatSchema })).toEqual(
    buildContractResolution(decision),
  );
  expect(buildResumeResolution(decision, { serverKind: "degraded", responseSchema: flatSchema })).toEqual({
    status: "resolved",
    payload: { target: "prod", approved: true, accepted: true },
  });
});

test("an approval's reason is sent where the schema declares it, and never over a flat argument", () => {
  const withReason = {
    type: "object",
    properties: { approved: {}, editedArgs: {}, reason: { type: "string" } },
  };
  const decision = { kind: "approve", editedArgs: { target: "staging" }, reason: "staging first" } as const;
  expect(buildContractResolution(decision, withReason)).toEqual({
    status: "resolved",
    payload: { approved: true, editedArgs: { target: "staging" }, reason: "staging first" },
  });
  // An open schema on a server without the contract gets both decision flags.
  expect(buildDegradedResolution(decision, withReason)).toEqual({
    status: "resolved",
    payload: { approved: true, accepted: true, editedArgs: { target: "staging" }, reason: "staging first" },
  });
  // A closed schema without `reason`: the reason stays with the entry, the answer stays valid.
  const closed = { type: "object", properties: { approved: {} }, additionalProperties: false };
  expect(buildContractResolution({ kind: "approve", reason: "fine" }, closed)).toEqual({
    status: "resolved",
    payload: { approved: true },
  });
  // Flat edits: `reason` is the tool's own argument there, and the person's edit of it wins.
  const flat = { type: "object", properties: { accepted: {}, reason: { type: "string" } } };
  expect(
    buildDegradedResolution({ kind: "approve", editedArgs: { reason: "hotfix" }, reason: "comment" }, flat),
  ).toEqual({ status: "resolved", payload: { reason: "hotfix", approved: true, accepted: true } });
});
