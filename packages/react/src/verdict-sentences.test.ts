// One test per sentence of the card's verdict table: decision × verdict × server
// kind. The README's "What the person sees" table prints the same sentences; the
// last test keeps the two from drifting apart.
import {
  batchProgress,
  type Decision,
  type EntryError,
  EntryState,
  type OutboxEntry,
  type ServerKind,
} from "@agui-outbox/core";
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

function progress(entries: readonly OutboxEntry[], subject: OutboxEntry) {
  const batch = batchProgress(entries, subject);
  if (!batch) throw new Error("the entry is not part of a batch");
  return batch;
}

// Held: answered, kept, and waiting for the run's other questions (one resume answers them all).
function held(decision: Decision, interruptId: string, interruptIds: readonly string[]): OutboxEntry {
  return entry(decision, { interruptId, key: `k-${interruptId}`, state: "held", batch: { interruptIds } });
}

const STALLED_REASON = "Delivery kept failing on the server's side; it resumes when you retry or come back.";
const STALLED: Partial<OutboxEntry> = {
  state: "stalled",
  nextAttemptAt: null,
  verdictDetail: STALLED_REASON,
  lastError: {
    kind: "retry_budget_exhausted",
    message: "Gave up for now after 12 failed answer(s) from the server.",
  },
};

// The held and stalled sentences, for the README check below.
const HELD_AND_STALLED: readonly string[] = [
  "1 of 2 answered — sent when all are answered.",
  "2 of 3 answered — sent when all are answered.",
  "Waiting for the other questions of this run; sent when all are answered.",
  `${STALLED_REASON} Your answer is kept and will be sent again with the same key.`,
  "Offline — will send when back.",
];

describe("held for the run's other questions", () => {
  for (const decision of Object.keys(DECISIONS)) {
    const kind = DECISIONS[decision] ?? { kind: "approve" };
    test(`${decision}: 1 of 2 answered, counted from the outbox`, () => {
      const first = held(kind, "i", ["i", "j"]);
      const description = describeVerdict(first, { batch: progress([first], first) });
      expect(description.sentence).toBe("1 of 2 answered — sent when all are answered.");
      expect(description.tone).toBe("pending");
    });
    test(`${decision}: 2 of 3 answered`, () => {
      const first = held(kind, "i", ["i", "j", "k"]);
      const second = held({ kind: "approve" }, "j", ["i", "j", "k"]);
      expect(describeVerdict(first, { batch: progress([first, second], first) }).sentence).toBe(
        "2 of 3 answered — sent when all are answered.",
      );
    });
    test(`${decision}: without the count, still says what it waits for`, () => {
      expect(describeVerdict(held(kind, "i", ["i", "j"])).sentence).toBe(
        "Waiting for the other questions of this run; sent when all are answered.",
      );
    });
  }
});

describe("stalled: the reason, and no countdown (nothing is scheduled until a retry or a return)", () => {
  for (const decision of Object.keys(DECISIONS))
    for (const serverKind of KINDS) {
      const subject = entry(DECISIONS[decision] ?? { kind: "approve" }, STALLED);
      test(`${decision} · ${serverKind}: the reason, the answer kept`, () => {
        const description = describeVerdict(subject, { serverKind, secondsLeft: 6 });
        expect(description.sentence).toBe(
          `${STALLED_REASON} Your answer is kept and will be sent again with the same key.`,
        );
        expect(description.tone).toBe("warning");
        // A countdown left over from an earlier wait is never shown.
        expect(description.sentence).not.toMatch(/retrying|\d s\b/);
      });
      test(`${decision} · ${serverKind}: offline says offline`, () => {
        expect(describeVerdict(subject, { serverKind, online: false }).sentence).toBe(
          "Offline — will send when back.",
        );
      });
    }
});

test("every entry state has a sentence of its own in these tests", () => {
  const covered = new Set([
    ...Object.values(VERDICTS).map((verdict) => verdict.state),
    "retry_wait",
    "held",
    "stalled",
  ]);
  expect(Object.values(EntryState).filter((state) => !covered.has(state))).toEqual([]);
});

test("the README prints every sentence of the table", () => {
  const missing = [...TABLE.map((row) => row[3]), ...WAITS.map((row) => row[3]), ...HELD_AND_STALLED].filter(
    (sentence) => !readme.includes(sentence),
  );
  expect(missing).toEqual([]);
});
