// One test per sentence of the card's verdict table: decision × verdict × server
// kind. The README's "What the person sees" table prints the same sentences; the
// last test keeps the two from drifting apart.
import type { Decision, EntryError, OutboxEntry, ServerKind } from "@agui-outbox/core";
import { describe, expect, test } from "vitest";
import readme from "../README.md?raw";
import { describeVerdict } from "./describe-verdict";

const DECISIONS: Readonly<Record<string, Decision>> = {
  approve: { kind: "approve" },
  reject: { kind: "reject", reason: "not today" },
  cancel: { kind: "cancel" },
};
const KINDS: readonly ServerKind[] = ["contract", "degraded"];

function entry(decision: Decision, extra: Partial<OutboxEntry>): OutboxEntry {
  return {
    key: "k",
    namespace: "n",
    threadId: "t",
    interruptId: "i",
    runId: "r",
    body: "{}",
    decision,
    state: "queued",
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

type Row = readonly [decision: string, verdict: string, kind: ServerKind | "both", sentence: string];
const VERDICTS: Readonly<Record<string, Partial<OutboxEntry>>> = {
  applied: { state: "applied" },
  "applied (replayed)": { state: "applied", replayed: true },
  elsewhere: {
    state: "elsewhere",
    recordedDecisions: [{ interruptId: "i", status: "resolved", payload: { approved: true } }],
  },
  lost: { state: "lost" },
  needs_user: { state: "needs_user" },
  expired: { state: "expired" },
  queued: { state: "queued" },
  sending: { state: "sending" },
  streaming: { state: "streaming" },
  paused: { state: "paused" },
};

const TABLE: readonly Row[] = [
  ["approve", "applied", "both", "Applied."],
  ["reject", "applied", "both", "Rejection delivered."],
  ["cancel", "applied", "both", "Cancellation delivered."],
  ["approve", "applied (replayed)", "both", "Applied (the server replayed its record)."],
  ["reject", "applied (replayed)", "both", "Rejection delivered (the server replayed its record)."],
  ["cancel", "applied (replayed)", "both", "Cancellation delivered (the server replayed its record)."],
  ["approve", "elsewhere", "both", "Answered elsewhere: it was approved."],
  ["reject", "elsewhere", "both", "Answered elsewhere: it was approved."],
  ["cancel", "elsewhere", "both", "Answered elsewhere: it was approved."],
  ["approve", "lost", "contract", "Outcome unknown — the tool may have run. Your answer is kept."],
  [
    "approve",
    "lost",
    "degraded",
    "Outcome unknown — the server took your answer but did not say what happened; the tool may have run. Your answer is kept.",
  ],
  ["reject", "lost", "both", "Outcome unknown — your rejection may not have arrived. Your answer is kept."],
  [
    "cancel",
    "lost",
    "both",
    "Outcome unknown — your cancellation may not have arrived. Your answer is kept.",
  ],
  ["approve", "needs_user", "both", "This answer could not be delivered as it is. Your answer is kept."],
  ["reject", "needs_user", "both", "This answer could not be delivered as it is. Your answer is kept."],
  ["cancel", "needs_user", "both", "This answer could not be delivered as it is. Your answer is kept."],
  ["approve", "expired", "both", "Expired before its outcome could be confirmed. Your answer is kept."],
  ["reject", "expired", "both", "Expired before its outcome could be confirmed. Your answer is kept."],
  ["cancel", "expired", "both", "Expired before its outcome could be confirmed. Your answer is kept."],
  ["approve", "queued", "both", "Your approval is saved on this device; sending shortly."],
  ["reject", "queued", "both", "Your rejection is saved on this device; sending shortly."],
  ["cancel", "queued", "both", "Your cancellation is saved on this device; sending shortly."],
  ["approve", "sending", "both", "Sending your approval…"],
  ["reject", "sending", "both", "Sending your rejection…"],
  ["cancel", "sending", "both", "Sending your cancellation…"],
  ["approve", "streaming", "contract", "The server received your approval; the agent is working on it."],
  ["approve", "streaming", "degraded", "The server took your approval; the agent is working on it."],
  ["reject", "streaming", "contract", "The server received your rejection; the agent is working on it."],
  ["reject", "streaming", "degraded", "The server took your rejection; the agent is working on it."],
  ["cancel", "streaming", "contract", "The server received your cancellation; the agent is working on it."],
  ["cancel", "streaming", "degraded", "The server took your cancellation; the agent is working on it."],
  ["approve", "paused", "both", "Sign in again to send. Your answer is kept."],
  ["reject", "paused", "both", "Sign in again to send. Your answer is kept."],
  ["cancel", "paused", "both", "Sign in again to send. Your answer is kept."],
];

describe("decision × verdict × server kind", () => {
  for (const [decision, verdict, kind, sentence] of TABLE)
    for (const serverKind of kind === "both" ? KINDS : [kind])
      test(`${decision} · ${verdict} · ${serverKind}: "${sentence}"`, () => {
        const subject = entry(DECISIONS[decision] ?? { kind: "approve" }, VERDICTS[verdict] ?? {});
        expect(describeVerdict(subject, { serverKind }).sentence).toBe(sentence);
      });

  test("the table covers every decision for every verdict, for both server kinds", () => {
    for (const decision of Object.keys(DECISIONS))
      for (const verdict of Object.keys(VERDICTS))
        for (const serverKind of KINDS)
          expect(
            TABLE.some(
              (row) =>
                row[0] === decision && row[1] === verdict && (row[2] === "both" || row[2] === serverKind),
            ),
            `${decision} · ${verdict} · ${serverKind}`,
          ).toBe(true);
  });
});

// Waiting: the reason first, one countdown, for every decision alike.
const WAITS: readonly (readonly [EntryError | null, boolean, number | null, string])[] = [
  [{ kind: "http", status: 429, message: "" }, true, 6, "Server busy (429) — retrying in 6 s."],
  [{ kind: "http", status: 503, message: "" }, true, 6, "Server unavailable (503) — retrying in 6 s."],
  [{ kind: "http", status: 502, message: "" }, true, 2, "Server error (502) — retrying in 2 s."],
  [{ kind: "network", message: "" }, true, 3, "Server restarting or unreachable — retrying in 3 s."],
  [{ kind: "network", message: "" }, false, 3, "Offline — will send when back."],
  [{ kind: "stream_ended", message: "" }, true, 1, "The connection dropped — retrying in 1 s."],
  [
    { kind: "run_error", code: "APPROVAL_RESUME_IN_PROGRESS", message: "" },
    true,
    4,
    "The server is still working on an earlier attempt — retrying in 4 s.",
  ],
  [{ kind: "http", status: 429, message: "" }, true, 0, "Server busy (429) — retrying now."],
  [null, true, 5, "Not delivered yet — retrying in 5 s."],
];

describe("waiting has a reason and one countdown", () => {
  for (const [lastError, online, secondsLeft, sentence] of WAITS)
    for (const decision of Object.keys(DECISIONS))
      test(`${decision}: "${sentence}"`, () => {
        const subject = entry(DECISIONS[decision] ?? { kind: "approve" }, { state: "retry_wait", lastError });
        expect(describeVerdict(subject, { secondsLeft, online }).sentence).toBe(sentence);
      });
});

test("the README prints every sentence of the table", () => {
  const missing = [...TABLE.map((row) => row[3]), ...WAITS.map((row) => row[3])].filter(
    (sentence) => !readme.includes(sentence),
  );
  expect(missing).toEqual([]);
});
