import { expect, test } from "vitest";
import { reduceBackgroundRun } from "./background-reducer";
import { type BackgroundRunRecord, createBackgroundRunRecord } from "./background-run-record";

const base: BackgroundRunRecord = createBackgroundRunRecord({
  runId: "run-1",
  threadId: "t1",
  continuationToken: "bgt_0",
  status: "queued",
  lastSeq: 1,
  now: 1_000,
});

const failure = { kind: "http", status: 503, code: "SERVICE_UNAVAILABLE", message: "down" };

test("a new record polls right away with the token it was given", () => {
  expect(base).toMatchObject({ verdict: "polling", nextPollAt: 1_000, attempts: 0, lastSeq: 1 });
});

test("retry-scheduled keeps the token, counts the attempt and remembers when failing began", () => {
  const once = reduceBackgroundRun(base, {
    type: "retry-scheduled",
    at: 2_000,
    retryAt: 3_000,
    reason: "busy",
    rule: "http-transient",
    error: failure,
  });
  const twice = reduceBackgroundRun(once, {
    type: "retry-scheduled",
    at: 3_000,
    retryAt: 5_000,
    reason: "busy",
    rule: "http-transient",
    error: failure,
  });
  expect(twice).toMatchObject({
    verdict: "retry_wait",
    continuationToken: "bgt_0",
    attempts: 2,
    failingSince: 2_000,
    nextPollAt: 5_000,
    lastError: failure,
    updatedAt: 3_000,
  });
});

test("a successful poll takes the new token, resets the failure count and never moves the cursor back", () => {
  const failing = reduceBackgroundRun(base, {
    type: "retry-scheduled",
    at: 2_000,
    retryAt: 3_000,
    reason: "busy",
    rule: "http-transient",
    error: failure,
  });
  const polled = reduceBackgroundRun(
    { ...failing, lastSeq: 9 },
    {
      type: "polled",
      at: 3_000,
      status: "in_progress",
      continuationToken: "bgt_1",
      lastSeq: 7,
      nextPollAt: 4_000,
    },
  );
  expect(polled).toMatchObject({
    verdict: "polling",
    status: "in_progress",
    continuationToken: "bgt_1",
    lastSeq: 9,
    attempts: 0,
    failingSince: null,
    lastError: null,
    nextPollAt: 4_000,
  });
});

test("settled: completed drops the token, lost keeps the raw error and the held token", () => {
  const completed = reduceBackgroundRun(base, {
    type: "settled",
    at: 5_000,
    verdict: "completed",
    reason: "done",
    rule: "background-completed",
    error: null,
    status: "completed",
    lastSeq: 12,
    continuationToken: null,
  });
  expect(completed).toMatchObject({
    verdict: "completed",
    continuationToken: null,
    lastSeq: 12,
    nextPollAt: null,
  });

  const lostError = { kind: "run_error", code: "BACKGROUND_TOOL_RESULT_INDETERMINATE", message: "cut off" };
  const lost = reduceBackgroundRun(base, {
    type: "settled",
    at: 5_000,
    verdict: "lost",
    reason: "may have run",
    rule: "indeterminate",
    error: lostError,
  });
  expect(lost).toMatchObject({
    verdict: "lost",
    continuationToken: "bgt_0",
    lastError: lostError,
    rule: "indeterminate",
  });
});

test("token-adopted polls at once with the newer token and counts toward the budget", () => {
  const adopted = reduceBackgroundRun(base, {
    type: "token-adopted",
    at: 2_000,
    continuationToken: "bgt_5",
    reason: "moved on",
    rule: "background-token-stale",
    error: null,
  });
  expect(adopted).toMatchObject({
    verdict: "polling",
    continuationToken: "bgt_5",
    nextPollAt: 2_000,
    attempts: 1,
  });
});

test("paused waits for poll-now; poll-now does nothing without a token", () => {
  const paused = reduceBackgroundRun(base, { type: "paused", at: 2_000, reason: "sign in", error: null });
  expect(paused).toMatchObject({ verdict: "paused", nextPollAt: null });
  expect(reduceBackgroundRun(paused, { type: "poll-now", at: 3_000 })).toMatchObject({
    verdict: "polling",
    nextPollAt: 3_000,
  });
  const tokenless = { ...paused, continuationToken: null };
  expect(reduceBackgroundRun(tokenless, { type: "poll-now", at: 3_000 })).toBe(tokenless);
});
