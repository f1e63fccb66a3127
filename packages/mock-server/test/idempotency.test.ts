import { expect, test } from "vitest";
import {
  APPROVE,
  askToDeploy,
  ledger,
  manualClock,
  post,
  resume,
  resumeBody,
  start,
  terminal,
  xResume,
} from "./support/harness";

test("a resume without Idempotency-Key is refused with 400 before anything is claimed", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-nokey");
  const body = resumeBody({
    threadId: "t-nokey",
    runId: "r1",
    interruptId: interrupt.id,
    key: "k",
    payload: APPROVE,
  });
  const response = await post(server, body);
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REQUIRED" } });
  expect(await ledger(server)).toHaveLength(0);

  // Nothing was claimed: the same answer with a key still applies.
  const applied = await resume(server, {
    threadId: "t-nokey",
    runId: "r1",
    interruptId: interrupt.id,
    key: "k",
    payload: APPROVE,
  });
  expect(terminal(applied).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("the same key with a different body is refused with 422", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-reuse");
  const first = resumeBody({
    threadId: "t-reuse",
    runId: "r1",
    interruptId: interrupt.id,
    key: "k1",
    payload: APPROVE,
  });
  const changed = resumeBody({
    threadId: "t-reuse",
    runId: "r1",
    interruptId: interrupt.id,
    key: "k1",
    payload: { approved: false },
  });
  const applied = await post(server, first, { "idempotency-key": "k1" });
  await applied.text();
  const response = await post(server, changed, { "idempotency-key": "k1" });
  expect(response.status).toBe(422);
  expect(await response.json()).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REUSED" } });
  expect(await ledger(server)).toHaveLength(1);
});

test("a key copied into resume metadata must agree with the header", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-copy");
  const body = resumeBody({
    threadId: "t-copy",
    runId: "r1",
    interruptId: interrupt.id,
    key: "k1",
    payload: APPROVE,
  });
  const response = await post(server, body, { "idempotency-key": "k2" });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  expect(await ledger(server)).toHaveLength(0);
});

test("a duplicate after success, same key, replays the recorded run marked x-resume.replayed", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-dup");
  const spec = {
    threadId: "t-dup",
    runId: "run-dup",
    interruptId: interrupt.id,
    key: "key-dup",
    payload: APPROVE,
  };
  const original = await resume(server, spec);
  const duplicate = await resume(server, spec);

  expect(xResume(terminal(duplicate))).toEqual({ replayed: true, originalRunId: "run-dup" });
  expect(duplicate.types).toEqual(original.types);
  // The replay shows the same tool result; it did not produce a new one.
  const resultOf = (events: typeof original.events) =>
    events.find((event) => event.type === "TOOL_CALL_RESULT");
  expect(resultOf(duplicate.events)?.messageId).toBe(resultOf(original.events)?.messageId);
  expect(await ledger(server)).toHaveLength(1);
});

test("the same decision under another key (another tab) also gets the replay, not a second execution", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-tab");
  await resume(server, {
    threadId: "t-tab",
    runId: "run-a",
    interruptId: interrupt.id,
    key: "key-a",
    payload: APPROVE,
  });
  const other = await resume(server, {
    threadId: "t-tab",
    runId: "run-b",
    interruptId: interrupt.id,
    key: "key-b",
    payload: APPROVE,
  });
  expect(terminal(other)).toMatchObject({ type: "RUN_FINISHED", runId: "run-b" });
  expect(xResume(terminal(other))).toEqual({ replayed: true, originalRunId: "run-a" });
  expect(await ledger(server)).toHaveLength(1);
});

test("a different decision on a resolved occurrence gets ALREADY_RESOLVED with the recorded decision", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-diff");
  const approve = { approved: true, editedArgs: { target: "qa" } };
  await resume(server, {
    threadId: "t-diff",
    runId: "run-1",
    interruptId: interrupt.id,
    key: "k-1",
    payload: approve,
  });
  const reject = await resume(server, {
    threadId: "t-diff",
    runId: "run-2",
    interruptId: interrupt.id,
    key: "k-2",
    payload: { approved: false },
  });
  expect(terminal(reject)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_ALREADY_RESOLVED" });
  expect(xResume(terminal(reject))).toMatchObject({
    recordedDecisions: [{ interruptId: interrupt.id, status: "resolved", payload: approve }],
    originalRunId: "run-1",
  });
  expect(await ledger(server)).toHaveLength(1);
});

test("an id that was never pending in this thread gets NOT_FOUND, and only then", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-nf");
  const unknown = await resume(server, {
    threadId: "t-nf",
    runId: "run-nf",
    interruptId: "call_never_issued",
    key: "k-nf",
    payload: APPROVE,
  });
  expect(terminal(unknown)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_NOT_FOUND" });
  expect(xResume(unknown.events[0])).toBeUndefined();

  // A real interrupt id asked on another thread was never pending there either.
  const elsewhere = await resume(server, {
    threadId: "t-other",
    runId: "run-other",
    interruptId: interrupt.id,
    key: "k-other",
    payload: APPROVE,
  });
  expect(terminal(elsewhere)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_NOT_FOUND" });
  expect(await ledger(server)).toHaveLength(0);
});

test("an expired interrupt gets EXPIRED and runs nothing", async () => {
  const clock = manualClock();
  const server = await start({ clock, interruptTtlMs: 60_000 });
  const { interrupt } = await askToDeploy(server, "t-exp");
  expect(Date.parse(String(interrupt.expiresAt))).toBe(clock.now() + 60_000);
  clock.advance(60_001);
  const reader = await resume(server, {
    threadId: "t-exp",
    runId: "run-exp",
    interruptId: interrupt.id,
    key: "k-exp",
    payload: APPROVE,
  });
  expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_EXPIRED" });
  expect(await ledger(server)).toHaveLength(0);
});

test("a payload that violates the responseSchema gets INVALID_RESPONSE and runs nothing", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-invalid");
  for (const [index, payload] of [
    { approved: "yes" },
    { approved: true, editedArgs: { target: "" } },
    { approved: true, surprise: 1 },
    undefined,
  ].entries()) {
    const reader = await resume(server, {
      threadId: "t-invalid",
      runId: `run-invalid-${index}`,
      interruptId: interrupt.id,
      key: `k-invalid-${index}`,
      payload,
    });
    expect(terminal(reader)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INVALID_RESPONSE" });
  }
  expect(await ledger(server)).toHaveLength(0);

  // Still pending: a valid answer applies.
  const ok = await resume(server, {
    threadId: "t-invalid",
    runId: "run-valid",
    interruptId: interrupt.id,
    key: "k-valid",
    payload: APPROVE,
  });
  expect(terminal(ok).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});
