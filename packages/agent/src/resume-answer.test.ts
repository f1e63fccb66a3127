import { expect, test } from "vitest";
import { readResumeEntry } from "./resume-answer";

const read = (entry: Parameters<typeof readResumeEntry>[1]) => readResumeEntry("t1", entry);

test("approvals, edits, rejections and cancellations become answers", () => {
  expect(read({ interruptId: "i1", status: "resolved", payload: { approved: true } })).toEqual({
    ok: true,
    answer: { threadId: "t1", interruptId: "i1", approved: true },
  });
  expect(
    read({
      interruptId: "i1",
      status: "resolved",
      payload: { approved: true, editedArgs: { target: "staging" } },
    }),
  ).toEqual({
    ok: true,
    answer: { threadId: "t1", interruptId: "i1", approved: true, editedArgs: { target: "staging" } },
  });
  expect(read({ interruptId: "i1", status: "resolved", payload: { approved: false, reason: "no" } })).toEqual(
    {
      ok: true,
      answer: { threadId: "t1", interruptId: "i1", approved: false, reason: "no" },
    },
  );
  // Agent Framework's flag.
  expect(read({ interruptId: "i1", status: "resolved", payload: { accepted: false } })).toEqual({
    ok: true,
    answer: { threadId: "t1", interruptId: "i1", approved: false },
  });
  expect(read({ interruptId: "i1", status: "cancelled" })).toEqual({
    ok: true,
    answer: { threadId: "t1", interruptId: "i1", cancelled: true },
  });
});

test.each([
  ["no payload", undefined],
  ["a string", "yes"],
  ["no decision flag", { target: "prod" }],
  ["a decision that is not a boolean", { approved: "true" }],
  ["edits that are not an object", { approved: true, editedArgs: ["prod"] }],
  ["a reason that is not a string", { approved: false, reason: 42 }],
])("%s is refused with a reason, never guessed", (_name, payload) => {
  const result = read({ interruptId: "i1", status: "resolved", payload });
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
});
