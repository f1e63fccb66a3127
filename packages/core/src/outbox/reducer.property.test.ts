// Properties of the entry reducer over any sequence of actions, in any order, with any
// values (late, duplicated, out of range): the invariants every transition keeps.
import fc from "fast-check";
import { expect, test } from "vitest";
import { assertProperty } from "../../test/support/property";
import type { Verdict } from "../outcome/verdict";
import { type EntryState, isFinalState, type OutboxEntry } from "./entry";
import { createEntry, reduceEntry } from "./reducer";
import type { EntryAction } from "./reducer-actions";

const T0 = 1_700_000_000_000;
const STATES: readonly EntryState[] = [
  "queued",
  "sending",
  "streaming",
  "retry_wait",
  "paused",
  "held",
  "stalled",
  "applied",
  "elsewhere",
  "lost",
  "needs_user",
  "expired",
];

// Each action's time is a step after the last (sequences below add them up); now and
// then a day passes, past the entry's 23 h retention.
const at = fc.oneof({ weight: 9, arbitrary: fc.nat(5_000) }, fc.constant(24 * 3_600_000));
const seq = fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY));
const body = fc.constantFrom("", '{"resume":[]}', '{"resume":[1]}');
const error = fc.option(fc.record({ kind: fc.constantFrom("http", "network"), message: fc.string() }), {
  nil: null,
});
const counters = fc.record({
  serverFailures: fc.nat(20),
  reattachesWithoutProgress: fc.nat(5),
  budgetChecks: fc.nat(2),
  firstSentAt: fc.option(at, { nil: null }),
});

const verdict: fc.Arbitrary<Verdict> = fc
  .record({
    // Retries weigh more: they lead to retry_wait, where sends are held back.
    kind: fc.constantFrom(
      "retry",
      "retry",
      "reattach",
      "applied",
      "elsewhere",
      "retry",
      "reattach",
      "status_then_hydrate",
      "hydrate_then_decide",
      "lost",
      "needs_user",
      "paused",
      "continue",
    ),
    retryAfterMs: fc.option(fc.oneof(fc.integer({ min: -1000, max: 60_000 }), fc.constant(Number.NaN)), {
      nil: undefined,
    }),
    replayed: fc.boolean(),
    error,
  })
  .map(
    ({ kind, retryAfterMs, replayed, error }) =>
      ({
        kind,
        rule: "property",
        reason: kind,
        error: kind === "needs_user" ? (error ?? { kind: "run_error", message: "m" }) : error,
        replayed,
        recordedDecisions: [],
        hydrate: false,
        acked: true,
        status: 401,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      }) as unknown as Verdict,
  );

/** Another answer of the batch, in any state, for `follow`. */
const leader = fc
  .record({ state: fc.constantFrom(...STATES), attempts: fc.nat(12), body, everSent: fc.boolean(), at })
  .map(({ state, attempts, body, everSent, at }) => ({
    ...createEntry({
      key: "leader",
      namespace: "n",
      threadId: "t",
      interruptId: "int-2",
      runId: "run-batch",
      body,
      decision: { kind: "approve" },
      now: T0 + at,
    }),
    state,
    attempts,
    everSent,
  }));

// Sends, verdicts and acks weigh more: random sequences then reach every state.
const action: fc.Arbitrary<EntryAction> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("attempt-started"),
      at,
      body: fc.option(body, { nil: undefined }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("verdict"),
      verdict,
      at,
      nextAttemptAt: fc.option(at, { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("claim-acked"),
      runId: fc.constantFrom("run-1", "run-2"),
      seq,
      at,
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("event-seen"), seq, at }) },
  fc.record({ type: fc.constant("sealed"), runId: fc.constantFrom("run-1", "run-batch"), body, at }),
  fc.record({ type: fc.constant("follow"), leader, at }),
  fc.record({ type: fc.constant("counted"), counters, at }),
  fc.record({ type: fc.constant("stalled"), reason: fc.constant("spent"), error, at }),
  fc.record({ type: fc.constantFrom("resumed-auth", "retry-now", "expired", "recovered-on-start"), at }),
) as fc.Arbitrary<EntryAction>;

const start = fc.record({ held: fc.boolean(), body }).map(({ held, body }) =>
  createEntry({
    key: "key-1",
    namespace: "n",
    threadId: "t",
    interruptId: "int-1",
    runId: "run-1",
    body,
    decision: { kind: "approve", editedArgs: { target: "prod" } },
    now: T0,
    ...(held ? { batch: { interruptIds: ["int-1", "int-2"] } } : {}),
  }),
);

/** Actions with their times made absolute: each `at` a step after the one before. */
const actions = fc.array(action, { maxLength: 40 }).map((list) => {
  let now = T0;
  return list.map((item): EntryAction => {
    now += item.at;
    if (item.type !== "verdict" || item.nextAttemptAt === undefined) return { ...item, at: now };
    return { ...item, at: now, nextAttemptAt: now + item.nextAttemptAt };
  });
});

const IDENTITY = [
  "key",
  "namespace",
  "threadId",
  "interruptId",
  "decision",
  "createdAt",
  "expiresAt",
] as const;

/** Every invariant of one transition; `why` names the action for the failure message. */
function checkTransition(before: OutboxEntry, act: EntryAction, after: OutboxEntry): void {
  const why = `${before.state} --${act.type}--> ${after.state}`;
  // A final verdict is the answer's last word: nothing moves it.
  if (isFinalState(before.state)) expect(after, why).toBe(before);
  for (const field of IDENTITY) expect(after[field], `${why}: ${field}`).toEqual(before[field]);
  // Attempts count sends: one more per send started, else unchanged (a follower copies its sender's).
  if (act.type !== "follow") {
    const sent = act.type === "attempt-started" && after !== before;
    expect(after.attempts, why).toBe(before.attempts + (sent ? 1 : 0));
    if (before.everSent) expect(after.everSent, why).toBe(true);
    if (sent) expect([after.state, after.body !== "", after.everSent], why).toEqual(["sending", true, true]);
  }
  // The bytes are fixed once: only sealing a held batch, or mirroring its sender, sets them anew.
  if (before.body !== "" && act.type !== "sealed" && act.type !== "follow")
    expect(after.body, why).toBe(before.body);
  // A final state comes only from a verdict of that kind, or from the retention window.
  if (isFinalState(after.state) && !isFinalState(before.state)) {
    if (act.type === "verdict") expect(after.state, why).toBe(act.verdict.kind);
    else
      expect([act.type, after.state, act.at >= before.expiresAt], why).toEqual(["expired", "expired", true]);
  }
  // A held answer waits for its batch: it leaves only sealed, or with a verdict.
  if (before.state === "held" && after.state !== "held")
    expect(act.type === "sealed" ? after.state : isFinalState(after.state), why).toBe(
      act.type === "sealed" ? "queued" : true,
    );
  // Never earlier than the server's Retry-After.
  if (act.type === "verdict" && act.verdict.kind === "retry" && after !== before) {
    const floor = act.at + Math.max(0, Number(act.verdict.retryAfterMs) || 0);
    expect(after.nextAttemptAt ?? Number.NaN, why).toBeGreaterThanOrEqual(floor);
  }
  // The cursor never moves back within a stream; only a new send (or sealing, or mirroring) restarts it.
  if (!["attempt-started", "sealed", "follow"].includes(act.type))
    expect(after.cursor.lastSeq, why).toBeGreaterThanOrEqual(before.cursor.lastSeq);
  expect(Number.isNaN(after.cursor.lastSeq), why).toBe(false);
}

test("any action sequence keeps every transition's invariants", async () => {
  await assertProperty(
    fc.property(start, actions, (entry, sequence) => {
      let current = entry;
      for (const act of sequence) {
        const next = reduceEntry(current, act);
        checkTransition(current, act, next);
        current = next;
      }
    }),
  );
});

test("a send only starts from queued or retry_wait, and never before nextAttemptAt", async () => {
  await assertProperty(
    fc.property(start, actions, (entry, sequence) => {
      let current = entry;
      for (const act of sequence) {
        const next = reduceEntry(current, act);
        if (act.type === "attempt-started" && next !== current) {
          expect(["queued", "retry_wait"]).toContain(current.state);
          expect(act.at).toBeGreaterThanOrEqual(current.nextAttemptAt ?? Number.NEGATIVE_INFINITY);
        }
        current = next;
      }
    }),
  );
});
