import { expect, test } from "vitest";
import { decisionOf, sameDecision } from "./decision";

test("an approval keeps the person's reason with its edits; an empty reason is no reason", () => {
  const base = { threadId: "t", interruptId: "i" } as const;
  expect(decisionOf({ ...base, approved: true, editedArgs: { target: "staging" }, reason: "green" })).toEqual(
    {
      kind: "approve",
      editedArgs: { target: "staging" },
      reason: "green",
    },
  );
  expect(decisionOf({ ...base, approved: true, reason: "" })).toEqual({ kind: "approve" });
  // A reason is part of the answer: the same approval with another reason is another answer.
  expect(sameDecision({ kind: "approve", reason: "a" }, { kind: "approve", reason: "b" })).toBe(false);
});
