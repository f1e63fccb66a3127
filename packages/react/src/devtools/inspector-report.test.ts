import { expect, test } from "vitest";
import { inspectorReport } from "./inspector-report";
import { connected, entry, outboxState } from "./test-entries.test-util";
import type { TimelineStep } from "./timeline";

const step: TimelineStep = {
  at: 1_000,
  what: "answered",
  source: "seen",
  state: "queued",
  attempts: 0,
  nextAttemptAt: null,
  error: null,
  rule: null,
};

function report(includeAnswers?: boolean) {
  const failed = entry({
    state: "retry_wait",
    attempts: 1,
    nextAttemptAt: 5_000,
    lastError: { kind: "http_status", code: "SERVER_BUSY", message: "Busy", status: 503 },
    rule: "http-transient",
  });
  return inspectorReport(
    {
      url: "/agent",
      namespace: "demo:alice",
      outbox: outboxState([failed]),
      connection: connected,
      timelines: new Map([["key-1", [step]]]),
    },
    { now: 10_000, ...(includeAnswers === undefined ? {} : { includeAnswers }) },
  );
}

test("the report names every entry's state, attempts, next try, last error, rule and timeline", () => {
  const [first] = report().entries;
  expect(first).toMatchObject({
    key: "key-1",
    threadId: "thread-1",
    interruptId: "int-1",
    decision: "approve",
    state: "retry_wait",
    attempts: 1,
    nextAttemptAt: 5_000,
    lastError: { code: "SERVER_BUSY", status: 503 },
    rule: "http-transient",
    timeline: [step],
  });
  expect(report().connection).toMatchObject({ link: "connected", serverKind: "contract", tab: "sending" });
});

test("by default the report carries no answer content: no edits, reason, body, question or user", () => {
  const text = JSON.stringify(report());
  for (const secret of ["SECRET-TARGET", "SECRET-REASON", "SECRET-QUESTION", "demo:alice", "editedArgs"])
    expect(text).not.toContain(secret);
});

test("an app that allows it gets the answer content too", () => {
  const text = JSON.stringify(report(true));
  for (const secret of ["SECRET-TARGET", "SECRET-REASON", "SECRET-QUESTION", "demo:alice"])
    expect(text).toContain(secret);
});
