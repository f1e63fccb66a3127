import { expect, test } from "vitest";
import type { Verdict } from "../outcome/verdict";
import { type EntryState, FINAL_STATES, isFinalState, type OutboxEntry } from "./entry";
import { createEntry, DEFAULT_RETENTION_MS, reduceEntry } from "./reducer";
import type { EntryAction } from "./reducer-actions";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function fresh(): OutboxEntry {
  return createEntry({
    key: "key-1",
    namespace: "user-1",
    threadId: "thread-1",
    interruptId: "int-1",
    runId: "run-1",
    body: '{"threadId":"thread-1"}',
    decision: { kind: "approve", editedArgs: { target: "staging" } },
    now: T0,
  });
}

/** An entry in `state`, reached by real transitions where one exists. */
function inState(state: EntryState): OutboxEntry {
  const queued = fresh();
  const sending = reduceEntry(queued, { type: "attempt-started", at: T0 + 1 });
  const streaming = reduceEntry(sending, { type: "claim-acked", runId: "run-1", seq: 1, at: T0 + 2 });
  switch (state) {
    case "queued":
      return deepFreeze(queued);
    case "sending":
      return deepFreeze(sending);
    case "streaming":
      return deepFreeze(streaming);
    case "retry_wait":
      return deepFreeze(
        reduceEntry(sending, {
          type: "verdict",
          verdict: verdicts.retry,
          at: T0 + 3,
          nextAttemptAt: T0 + 1000,
        }),
      );
    case "paused":
      return deepFreeze(reduceEntry(sending, { type: "verdict", verdict: verdicts.paused, at: T0 + 3 }));
    case "expired":
      return deepFreeze(reduceEntry(queued, { type: "expired", at: queued.expiresAt }));
    case "held":
      return deepFreeze({ ...queued, state: "held", batch: { interruptIds: ["int-1", "int-2"] } });
    case "stalled":
      return deepFreeze(reduceEntry(sending, { type: "stalled", reason: "spent", error: null, at: T0 + 3 }));
    default:
      return deepFreeze(reduceEntry(streaming, { type: "verdict", verdict: verdicts[state], at: T0 + 3 }));
  }
}

const httpError = { kind: "http", status: 503, message: "The server answered HTTP 503." } as const;

const verdicts = {
  applied: {
    kind: "applied",
    rule: "run-finished",
    replayed: false,
    reason: "The answer took effect.",
    error: null,
  },
  elsewhere: {
    kind: "elsewhere",
    rule: "already-resolved",
    recordedDecisions: [],
    reason: "Answered elsewhere.",
    error: { kind: "run_error", code: "APPROVAL_RESUME_ALREADY_RESOLVED", message: "resolved" },
  },
  lost: { kind: "lost", rule: "indeterminate", reason: "Unknown outcome.", error: null },
  needs_user: {
    kind: "needs_user",
    rule: "run-error-unknown",
    hydrate: false,
    reason: "Needs you.",
    error: { kind: "run_error", code: "NEW_CODE", message: "raw" },
  },
  retry: { kind: "retry", rule: "http-transient", reason: "Busy.", error: httpError },
  paused: {
    kind: "paused",
    rule: "http-unauthorized",
    status: 401,
    reason: "Sign in.",
    error: { kind: "unauthorized", status: 401, message: "The server answered HTTP 401." },
  },
  reattach: {
    kind: "reattach",
    rule: "break-after-ack",
    reason: "Reconnecting.",
    error: { kind: "stream_ended", message: "EOF" },
  },
  status_then_hydrate: {
    kind: "status_then_hydrate",
    rule: "reattach-gone",
    reason: "Fetching status.",
    error: { kind: "http", status: 410, message: "gone" },
  },
  hydrate_then_decide: {
    kind: "hydrate_then_decide",
    rule: "not-found-after-send",
    reason: "Checking the thread.",
    error: { kind: "run_error", code: "APPROVAL_RESUME_NOT_FOUND", message: "nf" },
  },
  continue: { kind: "continue", rule: "run-started-contract", acked: true, reason: "Accepted.", error: null },
} as const satisfies Record<Verdict["kind"], Verdict>;

const ALL_STATES: readonly EntryState[] = [
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

const LATE = T0 + 48 * HOUR;

function allActions(at: number): EntryAction[] {
  return [
    { type: "attempt-started", at },
    { type: "claim-acked", runId: "run-1", seq: 9, at },
    { type: "event-seen", seq: 10, at },
    ...Object.values(verdicts).map(
      (verdict): EntryAction => ({ type: "verdict", verdict, at, nextAttemptAt: at + 5 }),
    ),
    { type: "resumed-auth", at },
    { type: "retry-now", at },
    { type: "expired", at },
    { type: "recovered-on-start", at },
  ];
}

// --- createEntry -----------------------------------------------------------

test("createEntry builds a queued, never-sent entry kept for 23 h by default", () => {
  const entry = fresh();
  expect(entry).toEqual({
    key: "key-1",
    namespace: "user-1",
    threadId: "thread-1",
    interruptId: "int-1",
    runId: "run-1",
    body: '{"threadId":"thread-1"}',
    decision: { kind: "approve", editedArgs: { target: "staging" } },
    state: "queued",
    attempts: 0,
    nextAttemptAt: null,
    cursor: { runId: "run-1", lastSeq: 0, acked: false },
    lastError: null,
    verdictDetail: null,
    everSent: false,
    createdAt: T0,
    updatedAt: T0,
    expiresAt: T0 + 23 * HOUR,
  });
  expect(DEFAULT_RETENTION_MS).toBe(23 * HOUR);
});

test("createEntry honours a custom retention", () => {
  const entry = createEntry({ ...fresh(), now: T0, retentionMs: HOUR });
  expect(entry.expiresAt).toBe(T0 + HOUR);
});

// --- attempt-started -------------------------------------------------------

test("attempt-started: queued → sending, counts the attempt and marks the entry as ever sent", () => {
  const next = reduceEntry(inState("queued"), { type: "attempt-started", at: T0 + 10 });
  expect(next).toMatchObject({
    state: "sending",
    attempts: 1,
    everSent: true,
    nextAttemptAt: null,
    updatedAt: T0 + 10,
    cursor: { runId: "run-1", lastSeq: 0, acked: false },
  });
  expect(next.key).toBe("key-1");
  expect(next.body).toBe('{"threadId":"thread-1"}');
});

test("attempt-started: retry_wait → sending once nextAttemptAt is reached, with a fresh cursor", () => {
  const acked = reduceEntry(inState("streaming"), { type: "event-seen", seq: 7, at: T0 + 5 });
  const waiting = deepFreeze(
    reduceEntry(acked, { type: "verdict", verdict: verdicts.retry, at: T0 + 6, nextAttemptAt: T0 + 1000 }),
  );
  expect(waiting.cursor).toEqual({ runId: "run-1", lastSeq: 7, acked: true });
  const next = reduceEntry(waiting, { type: "attempt-started", at: T0 + 1000 });
  expect(next).toMatchObject({ state: "sending", attempts: 2, nextAttemptAt: null, verdictDetail: null });
  expect(next.cursor).toEqual({ runId: "run-1", lastSeq: 0, acked: false });
  // The last failure stays visible while the new attempt is in flight.
  expect(next.lastError).toEqual(httpError);
});

test("attempt-started is ignored before nextAttemptAt: no request earlier than allowed", () => {
  const waiting = inState("retry_wait");
  expect(reduceEntry(waiting, { type: "attempt-started", at: T0 + 999 })).toBe(waiting);
});

test("attempt-started is ignored while sending, streaming or paused", () => {
  for (const state of ["sending", "streaming", "paused"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "attempt-started", at: T0 + 5000 }), state).toBe(entry);
  }
});

// --- claim-acked -----------------------------------------------------------

test("claim-acked: sending → streaming with an acknowledged cursor", () => {
  const next = reduceEntry(inState("sending"), { type: "claim-acked", runId: "run-1", seq: 1, at: T0 + 20 });
  expect(next).toMatchObject({ state: "streaming", updatedAt: T0 + 20 });
  expect(next.cursor).toEqual({ runId: "run-1", lastSeq: 1, acked: true });
});

test("claim-acked without an SSE id (seq 0) still acknowledges", () => {
  const next = reduceEntry(inState("sending"), { type: "claim-acked", runId: "run-1", seq: 0, at: T0 + 20 });
  expect(next.cursor).toEqual({ runId: "run-1", lastSeq: 0, acked: true });
  expect(next.state).toBe("streaming");
});

test("claim-acked replayed on re-attach only advances the cursor; an identical one is a no-op", () => {
  const streaming = inState("streaming");
  expect(reduceEntry(streaming, { type: "claim-acked", runId: "run-1", seq: 1, at: T0 + 30 })).toBe(
    streaming,
  );
  const advanced = reduceEntry(streaming, { type: "claim-acked", runId: "run-1", seq: 4, at: T0 + 30 });
  expect(advanced.cursor).toEqual({ runId: "run-1", lastSeq: 4, acked: true });
});

test("claim-acked is ignored in queued, retry_wait and paused", () => {
  for (const state of ["queued", "retry_wait", "paused"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "claim-acked", runId: "run-1", seq: 2, at: T0 + 40 }), state).toBe(
      entry,
    );
  }
});

// --- event-seen ------------------------------------------------------------

test("event-seen advances the cursor while sending or streaming", () => {
  for (const state of ["sending", "streaming"] as const) {
    const next = reduceEntry(inState(state), { type: "event-seen", seq: 5, at: T0 + 50 });
    expect(next.cursor.lastSeq, state).toBe(5);
    expect(next.state, state).toBe(state);
    expect(next.updatedAt, state).toBe(T0 + 50);
  }
});

test("event-seen is monotonic: an older, equal or non-numeric seq changes nothing", () => {
  const ahead = deepFreeze(reduceEntry(inState("streaming"), { type: "event-seen", seq: 5, at: T0 + 50 }));
  for (const seq of [5, 4, 0, -1, Number.NaN]) {
    expect(reduceEntry(ahead, { type: "event-seen", seq, at: T0 + 60 }), String(seq)).toBe(ahead);
  }
});

test("event-seen is ignored when nothing is in flight", () => {
  for (const state of ["queued", "retry_wait", "paused"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "event-seen", seq: 3, at: T0 + 70 }), state).toBe(entry);
  }
});

// --- verdict ---------------------------------------------------------------

test("verdict applied/elsewhere/lost/needs_user from sending or streaming → that final state", () => {
  for (const from of ["sending", "streaming"] as const) {
    for (const kind of ["applied", "elsewhere", "lost", "needs_user"] as const) {
      const next = reduceEntry(inState(from), { type: "verdict", verdict: verdicts[kind], at: T0 + 80 });
      expect(next.state, `${from} → ${kind}`).toBe(kind);
      expect(next.verdictDetail).toBe(verdicts[kind].reason);
      expect(next.nextAttemptAt).toBeNull();
      expect(isFinalState(next.state)).toBe(true);
    }
  }
});

test("a final verdict can also settle an entry that is waiting (reconciliation while queued, retrying or paused)", () => {
  for (const from of ["queued", "retry_wait", "paused"] as const) {
    const next = reduceEntry(inState(from), { type: "verdict", verdict: verdicts.applied, at: T0 + 80 });
    expect(next.state, from).toBe("applied");
  }
});

test("verdict needs_user keeps the raw code and message in lastError", () => {
  const next = reduceEntry(inState("sending"), {
    type: "verdict",
    verdict: verdicts.needs_user,
    at: T0 + 80,
  });
  expect(next.lastError).toEqual({ kind: "run_error", code: "NEW_CODE", message: "raw" });
});

test("verdict applied clears the last failure; a verdict without a failure keeps the previous one", () => {
  const failed = deepFreeze(
    reduceEntry(inState("sending"), { type: "verdict", verdict: verdicts.hydrate_then_decide, at: T0 + 80 }),
  );
  expect(failed.lastError).toEqual(verdicts.hydrate_then_decide.error);
  expect(reduceEntry(failed, { type: "verdict", verdict: verdicts.lost, at: T0 + 90 }).lastError).toEqual(
    verdicts.hydrate_then_decide.error,
  );
  expect(
    reduceEntry(failed, { type: "verdict", verdict: verdicts.applied, at: T0 + 90 }).lastError,
  ).toBeNull();
});

test("verdict retry → retry_wait at the caller's backoff", () => {
  const next = reduceEntry(inState("sending"), {
    type: "verdict",
    verdict: verdicts.retry,
    at: T0 + 100,
    nextAttemptAt: T0 + 2100,
  });
  expect(next).toMatchObject({
    state: "retry_wait",
    nextAttemptAt: T0 + 2100,
    lastError: httpError,
    updatedAt: T0 + 100,
  });
});

test("verdict retry never schedules earlier than the server's Retry-After", () => {
  const verdict: Verdict = { ...verdicts.retry, retryAfterMs: 30_000 };
  const early = reduceEntry(inState("streaming"), {
    type: "verdict",
    verdict,
    at: T0,
    nextAttemptAt: T0 + 1000,
  });
  expect(early.nextAttemptAt).toBe(T0 + 30_000);
  const later = reduceEntry(inState("streaming"), {
    type: "verdict",
    verdict,
    at: T0,
    nextAttemptAt: T0 + 45_000,
  });
  expect(later.nextAttemptAt).toBe(T0 + 45_000);
});

test("verdict retry without a backoff, or with a non-finite one, is due immediately", () => {
  expect(
    reduceEntry(inState("sending"), { type: "verdict", verdict: verdicts.retry, at: T0 + 5 }).nextAttemptAt,
  ).toBe(T0 + 5);
  const verdict: Verdict = { ...verdicts.retry, retryAfterMs: Number.NaN };
  const next = reduceEntry(inState("sending"), {
    type: "verdict",
    verdict,
    at: T0 + 5,
    nextAttemptAt: Number.NaN,
  });
  expect(next.nextAttemptAt).toBe(T0 + 5);
});

test("verdict paused: sending or streaming → paused", () => {
  for (const from of ["sending", "streaming"] as const) {
    const next = reduceEntry(inState(from), { type: "verdict", verdict: verdicts.paused, at: T0 + 110 });
    expect(next.state, from).toBe("paused");
    expect(next.lastError?.kind).toBe("unauthorized");
  }
});

test("verdict reattach keeps (or makes) the entry streaming, with an optional delay", () => {
  const streaming = inState("streaming");
  const next = reduceEntry(streaming, { type: "verdict", verdict: verdicts.reattach, at: T0 + 120 });
  expect(next).toMatchObject({ state: "streaming", nextAttemptAt: null, verdictDetail: "Reconnecting." });
  expect(next.cursor).toEqual(streaming.cursor);
  const delayed = reduceEntry(streaming, {
    type: "verdict",
    verdict: verdicts.reattach,
    at: T0 + 120,
    nextAttemptAt: T0 + 1120,
  });
  expect(delayed.nextAttemptAt).toBe(T0 + 1120);
  expect(
    reduceEntry(inState("sending"), { type: "verdict", verdict: verdicts.reattach, at: T0 + 120 }).state,
  ).toBe("streaming");
});

test("verdicts status_then_hydrate and hydrate_then_decide keep the state and record why", () => {
  for (const from of ["sending", "streaming"] as const) {
    for (const kind of ["status_then_hydrate", "hydrate_then_decide"] as const) {
      const entry = inState(from);
      const next = reduceEntry(entry, { type: "verdict", verdict: verdicts[kind], at: T0 + 130 });
      expect(next.state, `${from} ${kind}`).toBe(from);
      expect(next.cursor).toEqual(entry.cursor);
      expect(next.verdictDetail).toBe(verdicts[kind].reason);
      expect(next.lastError).toEqual(verdicts[kind].error);
    }
  }
});

test("verdict continue is not an outcome: the entry is returned unchanged", () => {
  for (const from of ["sending", "streaming"] as const) {
    const entry = inState(from);
    expect(reduceEntry(entry, { type: "verdict", verdict: verdicts.continue, at: T0 + 140 }), from).toBe(
      entry,
    );
  }
});

test("non-final verdicts are ignored when nothing is in flight (a late callback cannot reschedule)", () => {
  for (const from of ["queued", "retry_wait", "paused"] as const) {
    for (const kind of [
      "retry",
      "paused",
      "reattach",
      "status_then_hydrate",
      "hydrate_then_decide",
      "continue",
    ] as const) {
      const entry = inState(from);
      expect(
        reduceEntry(entry, { type: "verdict", verdict: verdicts[kind], at: T0 + 150 }),
        `${from} ${kind}`,
      ).toBe(entry);
    }
  }
});

// --- resumed-auth, retry-now -----------------------------------------------

test("resumed-auth: paused → queued", () => {
  const next = reduceEntry(inState("paused"), { type: "resumed-auth", at: T0 + 160 });
  expect(next).toMatchObject({ state: "queued", nextAttemptAt: null, updatedAt: T0 + 160 });
});

test("resumed-auth is ignored outside paused", () => {
  for (const state of ["queued", "sending", "streaming", "retry_wait"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "resumed-auth", at: T0 + 160 }), state).toBe(entry);
  }
});

test("retry-now: retry_wait → queued, due immediately", () => {
  const next = reduceEntry(inState("retry_wait"), { type: "retry-now", at: T0 + 170 });
  expect(next).toMatchObject({ state: "queued", nextAttemptAt: null, updatedAt: T0 + 170 });
  expect(reduceEntry(next, { type: "attempt-started", at: T0 + 171 }).state).toBe("sending");
});

test("retry-now is ignored outside retry_wait", () => {
  for (const state of ["queued", "sending", "streaming", "paused"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "retry-now", at: T0 + 170 }), state).toBe(entry);
  }
});

// --- expired ---------------------------------------------------------------

test("expired: any non-final state → expired once expiresAt is reached", () => {
  for (const state of ["queued", "sending", "streaming", "retry_wait", "paused"] as const) {
    const entry = inState(state);
    const next = reduceEntry(entry, { type: "expired", at: entry.expiresAt });
    expect(next.state, state).toBe("expired");
    expect(next.nextAttemptAt).toBeNull();
    expect(next.verdictDetail).toContain("retention");
    expect(next.decision).toEqual(entry.decision);
  }
});

test("expired is ignored before expiresAt", () => {
  const entry = inState("retry_wait");
  expect(reduceEntry(entry, { type: "expired", at: entry.expiresAt - 1 })).toBe(entry);
});

// --- recovered-on-start ----------------------------------------------------

test("recovered-on-start: sending → queued with the same key, body and attempt count (the retry path)", () => {
  const sending = inState("sending");
  const next = reduceEntry(sending, { type: "recovered-on-start", at: T0 + 180 });
  expect(next).toMatchObject({
    state: "queued",
    key: sending.key,
    body: sending.body,
    attempts: 1,
    everSent: true,
  });
});

test("recovered-on-start: an acknowledged stream stays streaming with its cursor (the re-attach path)", () => {
  const streaming = deepFreeze(
    reduceEntry(inState("streaming"), { type: "event-seen", seq: 12, at: T0 + 5 }),
  );
  expect(reduceEntry(streaming, { type: "recovered-on-start", at: T0 + 180 })).toBe(streaming);
});

test("recovered-on-start: a streaming entry without an ack is resent", () => {
  const odd = deepFreeze({ ...inState("streaming"), cursor: { runId: "run-1", lastSeq: 2, acked: false } });
  expect(reduceEntry(odd, { type: "recovered-on-start", at: T0 + 180 }).state).toBe("queued");
});

test("recovered-on-start leaves queued, retry_wait and paused entries as they are", () => {
  for (const state of ["queued", "retry_wait", "paused"] as const) {
    const entry = inState(state);
    expect(reduceEntry(entry, { type: "recovered-on-start", at: T0 + 180 }), state).toBe(entry);
  }
});

// --- final states, robustness ----------------------------------------------

test("final states accept no action at all", () => {
  for (const state of FINAL_STATES) {
    const entry = inState(state);
    expect(entry.state).toBe(state);
    for (const action of allActions(LATE)) {
      expect(reduceEntry(entry, action), `${state} ${action.type}`).toBe(entry);
    }
  }
});

test("an action of an unknown type is ignored, never thrown on", () => {
  const bogus = JSON.parse('{"type":"teleport","at":1}') as EntryAction;
  for (const state of ALL_STATES) {
    const entry = inState(state);
    expect(reduceEntry(entry, bogus), state).toBe(entry);
  }
});

test("the reducer never mutates its input (every input here is deeply frozen)", () => {
  for (const state of ALL_STATES) {
    const entry = inState(state);
    const snapshot = structuredClone(entry);
    for (const action of allActions(T0 + 2000)) reduceEntry(entry, action);
    expect(entry).toEqual(snapshot);
  }
});

/** Small deterministic PRNG (mulberry32) so a failing sequence can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("no action sequence moves a final entry back, and every step keeps the entry's identity", () => {
  let finals = 0;
  const problems: string[] = [];
  for (let seed = 1; seed <= 300; seed += 1) {
    const next = random(seed);
    let entry = deepFreeze(fresh());
    let now = T0;
    let finalState: EntryState | null = null;
    for (let step = 0; step < 40; step += 1) {
      // Mostly small steps, sometimes a jump past the retention window.
      now += next() < 0.05 ? 24 * HOUR : Math.floor(next() * 5000);
      const pool = allActions(now);
      const action = pool[Math.floor(next() * pool.length)];
      if (!action) continue;
      const after = deepFreeze(reduceEntry(entry, action));
      const identityKept = after.key === "key-1" && after.runId === "run-1" && after.body === entry.body;
      if (!identityKept || after.attempts < entry.attempts)
        problems.push(`seed ${seed} step ${step}: identity`);
      if (finalState !== null && after !== entry)
        problems.push(`seed ${seed} step ${step}: left ${finalState}`);
      if (isFinalState(after.state) && finalState === null) {
        finalState = after.state;
        finals += 1;
      }
      entry = after;
    }
  }
  expect(problems).toEqual([]);
  // The sequences must actually reach final states for the property to mean anything.
  expect(finals).toBeGreaterThan(100);
});

test("every verdict leaves its rule id on the entry, for the inspector and a bug report", () => {
  for (const kind of ["applied", "lost", "retry", "paused", "hydrate_then_decide"] as const) {
    const next = reduceEntry(inState("sending"), {
      type: "verdict",
      verdict: verdicts[kind],
      at: T0 + 80,
      nextAttemptAt: T0 + 1000,
    });
    expect(next.rule, kind).toBe(verdicts[kind].rule);
  }
  expect(fresh().rule).toBeUndefined();
});
