import { expect, test } from "vitest";
import { terminalSignal } from "../delivery/pump-run-stream";
import type { AgUiEvent } from "../protocol";
import { outcomesOnly, recordedOutcome, withRecordedOutcomes } from "./recorded-outcome";

test("a recorded decision keeps its outcome, never its payload", () => {
  const secret = { approved: true, editedArgs: { target: "x" }, reason: "mine" };
  expect(recordedOutcome({ interruptId: "i", status: "resolved", payload: secret })).toEqual({
    interruptId: "i",
    status: "resolved",
    payload: { approved: true },
  });
  expect(
    recordedOutcome({ interruptId: "i", status: "resolved", payload: { accepted: false, x: 1 } }),
  ).toEqual({
    interruptId: "i",
    status: "resolved",
    payload: { approved: false },
  });
  expect(recordedOutcome({ interruptId: "i", status: "resolved", payload: "free text" })).toEqual({
    interruptId: "i",
    status: "resolved",
  });
  expect(recordedOutcome({ interruptId: "i", status: "cancelled", payload: secret })).toEqual({
    interruptId: "i",
    status: "cancelled",
  });
});

test("a run error mirrored to other tabs carries outcomes only; other events pass as they are", () => {
  const event = {
    type: "RUN_ERROR",
    message: "already resolved",
    code: "APPROVAL_RESUME_ALREADY_RESOLVED",
    metadata: {
      "x-resume": {
        originalRunId: "r0",
        recordedDecisions: [
          { interruptId: "i", status: "resolved", payload: { approved: true, editedArgs: { t: "x" } } },
        ],
      },
      "x-stream": { runId: "r1", seq: 2 },
    },
  } as unknown as AgUiEvent;
  expect(withRecordedOutcomes(event)).toEqual({
    ...event,
    metadata: {
      "x-resume": {
        originalRunId: "r0",
        recordedDecisions: [{ interruptId: "i", status: "resolved", payload: { approved: true } }],
      },
      "x-stream": { runId: "r1", seq: 2 },
    },
  });
  const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r" } as AgUiEvent;
  expect(withRecordedOutcomes(finished)).toBe(finished);
});

test("a terminal event read from a run's status gives the verdict outcomes only", () => {
  const event = {
    type: "RUN_ERROR",
    message: "already resolved",
    code: "APPROVAL_RESUME_ALREADY_RESOLVED",
    metadata: {
      "x-resume": {
        recordedDecisions: [
          { interruptId: "i", status: "resolved", payload: { approved: false, reason: "theirs" } },
        ],
      },
    },
  } as unknown as AgUiEvent;
  const signal = terminalSignal(event);
  expect(signal && outcomesOnly(signal)).toEqual({
    type: "run-error",
    message: "already resolved",
    code: "APPROVAL_RESUME_ALREADY_RESOLVED",
    recordedDecisions: [{ interruptId: "i", status: "resolved", payload: { approved: false } }],
  });
  const finished = { type: "run-finished", replayed: false } as const;
  expect(outcomesOnly(finished)).toBe(finished);
});
