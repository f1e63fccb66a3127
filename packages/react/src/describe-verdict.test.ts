import type { EntryState, OutboxEntry } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { describeDecision, resendMessage } from "./describe-decision";
import { describeVerdict, VerdictTone } from "./describe-verdict";

function entry(state: EntryState, extra: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    key: "k",
    namespace: "n",
    threadId: "t",
    interruptId: "i",
    runId: "r",
    body: "{}",
    decision: { kind: "approve" },
    state,
    attempts: 1,
    nextAttemptAt: null,
    cursor: { runId: "r", lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: true,
    createdAt: 0,
    updatedAt: 0,
    expiresAt: 1,
    ...extra,
  };
}

test("every entry state has a sentence and a tone", () => {
  const states: EntryState[] = [
    "queued",
    "sending",
    "streaming",
    "retry_wait",
    "paused",
    "applied",
    "elsewhere",
    "lost",
    "needs_user",
    "expired",
  ];
  for (const state of states) {
    const description = describeVerdict(entry(state), 3);
    expect(description.sentence.length).toBeGreaterThan(0);
    expect(Object.values(VerdictTone)).toContain(description.tone);
  }
});

test("the verdict sentences promised to the person", () => {
  expect(describeVerdict(entry("applied")).sentence).toBe("Applied.");
  expect(describeVerdict(entry("applied", { replayed: true })).sentence).toBe(
    "Applied (the server replayed its record).",
  );
  expect(describeVerdict(entry("retry_wait", { attempts: 2 }), 7).sentence).toBe(
    "Not delivered yet — retrying in 7 s.",
  );
  expect(describeVerdict(entry("paused")).sentence).toBe("Sign in again to send. Your answer is kept.");
  expect(describeVerdict(entry("lost")).sentence).toBe(
    "Outcome unknown — the tool may have run. Your answer is kept.",
  );
  expect(describeVerdict(entry("needs_user", { verdictDetail: "Review it." })).sentence).toBe("Review it.");
  expect(describeVerdict(entry("elsewhere", { verdictDetail: "Rejected in another tab." })).sentence).toBe(
    "Answered elsewhere: Rejected in another tab.",
  );
  expect(
    describeVerdict(
      entry("elsewhere", {
        recordedDecisions: [{ interruptId: "i", status: "resolved", payload: { approved: true } }],
      }),
    ).sentence,
  ).toBe("Answered elsewhere: it was approved.");
});

test("decisions in words, and the resend message says the outcome is unknown", () => {
  expect(describeDecision({ kind: "approve" })).toBe("You approved.");
  expect(describeDecision({ kind: "approve", editedArgs: { target: "staging" } })).toBe(
    "You approved with target = staging.",
  );
  expect(describeDecision({ kind: "reject", reason: "not today" })).toBe("You rejected: not today");
  expect(describeDecision({ kind: "approve", reason: "staging was green" })).toBe(
    "You approved. staging was green",
  );
  expect(describeDecision({ kind: "cancel" })).toBe("You cancelled the question.");
  expect(resendMessage({ kind: "reject" }, "Deploy to prod?")).toBe(
    'My earlier answer to "Deploy to prod?" may not have arrived: I rejected it. Please check whether it was already done before acting on it.',
  );
});
