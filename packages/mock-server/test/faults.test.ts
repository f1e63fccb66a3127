import { expect, test } from "vitest";
import {
  APPROVE,
  addFaults,
  askToDeploy,
  gatedSleep,
  ledger,
  post,
  postStream,
  reattach,
  resume,
  resumeBody,
  start,
  terminal,
  xResume,
} from "./support/harness";
import { SseReader } from "./support/sse-reader";

test("failure after the tool, then a retry with the same key: the run finishes on the stored result, one execution", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-after-tool");
  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  const spec = {
    threadId: "t-after-tool",
    runId: "run-at",
    interruptId: interrupt.id,
    key: "key-at",
    payload: APPROVE,
  };

  const failed = await resume(server, spec);
  expect(xResume(failed.events[0])).toMatchObject({ ack: "claimed" });
  expect(failed.types).toContain("TOOL_CALL_RESULT");
  expect(terminal(failed)).toMatchObject({ type: "RUN_ERROR", code: "AGENT_MODEL_CALL_FAILED" });
  expect(await ledger(server)).toHaveLength(1);

  const retried = await resume(server, spec);
  expect(retried.types).not.toContain("RUN_ERROR");
  expect(terminal(retried)).toMatchObject({
    type: "RUN_FINISHED",
    runId: "run-at",
    outcome: { type: "success" },
  });
  const resultOf = (reader: SseReader) => reader.events.find((event) => event.type === "TOOL_CALL_RESULT");
  expect(resultOf(retried)?.messageId).toBe(resultOf(failed)?.messageId);
  expect(await ledger(server)).toHaveLength(1);

  // One log per runId: the retry continued the seq numbering after the failed attempt.
  const firstSeqOfRetry = Number(retried.frames[0]?.id?.split(":").at(-1));
  expect(firstSeqOfRetry).toBe(failed.frames.length + 1);
});

test("a different decision after a rolled-back execution cannot apply: the tool already ran", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-after-tool-other");
  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  await resume(server, {
    threadId: "t-after-tool-other",
    runId: "run-1",
    interruptId: interrupt.id,
    key: "key-1",
    payload: APPROVE,
  });
  const reject = await resume(server, {
    threadId: "t-after-tool-other",
    runId: "run-2",
    interruptId: interrupt.id,
    key: "key-2",
    payload: { approved: false },
  });
  expect(terminal(reject)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_ALREADY_RESOLVED" });
  expect(xResume(terminal(reject))?.recordedDecisions).toEqual([
    { interruptId: interrupt.id, status: "resolved", payload: APPROVE },
  ]);
  expect(await ledger(server)).toHaveLength(1);
});

test("failure right after the claim rolls back; the retry with the same key runs the tool once", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-after-claim");
  await addFaults(server, [{ point: "after-claim", action: "fail" }]);
  const spec = {
    threadId: "t-after-claim",
    runId: "run-ac",
    interruptId: interrupt.id,
    key: "key-ac",
    payload: APPROVE,
  };
  const failed = await resume(server, spec);
  expect(failed.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  expect(xResume(failed.events[0])).toMatchObject({ ack: "claimed" });
  expect(await ledger(server)).toHaveLength(0);

  const retried = await resume(server, spec);
  expect(terminal(retried).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("before the claim: TOOL_UNAVAILABLE with nothing claimed, then the retry applies once", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-before-claim");
  await addFaults(server, [{ point: "before-claim", action: "fail" }]);
  const spec = {
    threadId: "t-before-claim",
    runId: "run-bc",
    interruptId: interrupt.id,
    key: "key-bc",
    payload: APPROVE,
  };
  const failed = await resume(server, spec);
  expect(terminal(failed)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_TOOL_UNAVAILABLE" });
  expect(xResume(failed.events[0])).toBeUndefined();
  expect(await ledger(server)).toHaveLength(0);

  const retried = await resume(server, spec);
  expect(terminal(retried).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("429 with Retry-After before anything is claimed; the retry then applies once", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-429");
  await addFaults(server, [{ point: "before-response", action: "status", status: 429, retryAfterMs: 1500 }]);
  const body = resumeBody({
    threadId: "t-429",
    runId: "run-429",
    interruptId: interrupt.id,
    key: "k-429",
    payload: APPROVE,
  });

  const limited = await post(server, body, { "idempotency-key": "k-429" });
  expect(limited.status).toBe(429);
  expect(limited.headers.get("retry-after")).toBe("2");
  expect(await limited.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
  expect(await ledger(server)).toHaveLength(0);

  const retried = await resume(server, {
    threadId: "t-429",
    runId: "run-429",
    interruptId: interrupt.id,
    key: "k-429",
    payload: APPROVE,
  });
  expect(terminal(retried).type).toBe("RUN_FINISHED");
  expect(xResume(terminal(retried))).toBeUndefined();
  expect(await ledger(server)).toHaveLength(1);
});

test("503 faults fire `times` times and can be limited to one thread", async () => {
  const server = await start();
  await addFaults(server, [
    { point: "before-response", action: "status", status: 503, times: 2, threadId: "t-503" },
  ]);
  const hydrate = (threadId: string, runId: string) =>
    post(server, JSON.stringify({ threadId, runId, messages: [] }));
  const other = await hydrate("t-elsewhere", "h-0");
  expect(other.status).toBe(200);
  await other.text();
  expect((await hydrate("t-503", "h-1")).status).toBe(503);
  expect((await hydrate("t-503", "h-2")).status).toBe(503);
  const third = await hydrate("t-503", "h-3");
  expect(third.status).toBe(200);
  await third.text();
  const pending = (await (await fetch(`${server.url}/__chaos`)).json()) as { faults: unknown[] };
  expect(pending.faults).toEqual([]);
});

test("a drop after N events: the run goes on, and re-attach with Last-Event-ID delivers every later event once", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-drop");
  await addFaults(server, [{ point: "mid-stream", action: "drop", afterEvents: 2 }]);
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-drop",
      runId: "run-drop",
      interruptId: interrupt.id,
      key: "k-drop",
      payload: APPROVE,
    }),
    { "idempotency-key": "k-drop" },
  );
  expect(await reader.done).toBe("error");
  expect(reader.frames.map((frame) => frame.id)).toEqual(["run-drop:1", "run-drop:2"]);

  const lastEventId = reader.frames.at(-1)?.id ?? "";
  const tail = new SseReader(await reattach(server, "run-drop", { lastEventId }));
  expect(await tail.done).toBe("end");
  const ids = [...reader.frames, ...tail.frames].map((frame) => frame.id);
  expect(ids).toEqual(ids.map((_, index) => `run-drop:${index + 1}`));
  expect(terminal(tail)).toMatchObject({ type: "RUN_FINISHED", runId: "run-drop" });
  expect(await ledger(server)).toHaveLength(1);

  // ?after= is the same cursor for clients that cannot set headers.
  const viaQuery = new SseReader(await reattach(server, "run-drop", { after: 2 }));
  await viaQuery.done;
  expect(viaQuery.frames).toEqual(tail.frames);
});

test("re-attach while the run is live replays, then tails until the terminal event", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-tail");
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-tail",
      runId: "run-tail",
      interruptId: interrupt.id,
      key: "k-tail",
      payload: APPROVE,
    }),
    { "idempotency-key": "k-tail" },
  );
  await reader.waitFor(() => gate.pending === 1);
  await reader.cancel();

  const tail = new SseReader(await reattach(server, "run-tail", { lastEventId: "run-tail:1" }));
  gate.releaseAll();
  expect(await tail.done).toBe("end");
  expect(tail.frames[0]?.id).toBe("run-tail:2");
  expect(terminal(tail).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("re-attach to an unknown run is 404; a malformed cursor is 400", async () => {
  const server = await start();
  const unknown = await reattach(server, "no-such-run");
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ error: { code: "RUN_NOT_FOUND" } });
  await askToDeploy(server, "t-cursor");
  const wrong = await reattach(server, "t-cursor-ask", { lastEventId: "other-run:3" });
  expect(wrong.status).toBe(400);
  const status = await fetch(`${server.url}/agent/runs/t-cursor-ask`);
  expect(await status.json()).toMatchObject({ runId: "t-cursor-ask", status: "finished", lastSeq: 8 });
});

test("two concurrent resumes with different keys: one claims, the other gets IN_PROGRESS naming it", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-race");
  const { reader: first } = await postStream(
    server,
    resumeBody({
      threadId: "t-race",
      runId: "run-a",
      interruptId: interrupt.id,
      key: "key-a",
      payload: APPROVE,
    }),
    { "idempotency-key": "key-a" },
  );
  await first.waitFor(() => first.frames.length >= 1 && gate.pending === 1);
  expect(xResume(first.events[0])).toMatchObject({ ack: "claimed", runId: "run-a" });

  const second = await resume(server, {
    threadId: "t-race",
    runId: "run-b",
    interruptId: interrupt.id,
    key: "key-b",
    payload: APPROVE,
  });
  expect(terminal(second)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_IN_PROGRESS" });
  expect(xResume(terminal(second))).toMatchObject({ claimedBy: "run-a" });
  expect(xResume(second.events[0])).toBeUndefined();

  gate.releaseAll();
  await first.done;
  expect(terminal(first).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("the same submission while its run is live attaches to that run instead of starting another", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-attach");
  const spec = {
    threadId: "t-attach",
    runId: "run-live",
    interruptId: interrupt.id,
    key: "key-live",
    payload: APPROVE,
  };
  const { reader: first } = await postStream(server, resumeBody(spec), { "idempotency-key": spec.key });
  await first.waitFor(() => gate.pending === 1);

  const { reader: again } = await postStream(server, resumeBody(spec), { "idempotency-key": spec.key });
  await again.waitFor(() => again.frames.length >= 1);
  gate.releaseAll();
  await Promise.all([first.done, again.done]);
  expect(again.frames.map((frame) => frame.id)).toEqual(first.frames.map((frame) => frame.id));
  expect(terminal(again).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("a tool cut off mid-execution is INDETERMINATE and never re-run by a later resume", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-mid-tool");
  await addFaults(server, [{ point: "mid-tool", action: "fail" }]);
  const spec = {
    threadId: "t-mid-tool",
    runId: "run-mt",
    interruptId: interrupt.id,
    key: "key-mt",
    payload: APPROVE,
  };
  const cut = await resume(server, spec);
  expect(terminal(cut)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INDETERMINATE" });
  expect(await ledger(server)).toHaveLength(1);

  for (const retry of [spec, { ...spec, runId: "run-mt-2", key: "key-mt-2" }]) {
    const again = await resume(server, retry);
    expect(terminal(again)).toMatchObject({ type: "RUN_ERROR", code: "APPROVAL_RESUME_INDETERMINATE" });
    expect(again.types).not.toContain("TOOL_CALL_RESULT");
  }
  expect(await ledger(server)).toHaveLength(1);
});

test("EOF before the claim ack: the retry with the same key applies once (attached or replayed)", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-eof");
  await addFaults(server, [{ point: "mid-stream", action: "drop", afterEvents: 0 }]);
  const spec = {
    threadId: "t-eof",
    runId: "run-eof",
    interruptId: interrupt.id,
    key: "key-eof",
    payload: APPROVE,
  };
  const lost = await post(server, resumeBody(spec), { "idempotency-key": spec.key })
    .then((response) => response.text())
    .then(
      () => "ended",
      () => "cut",
    );
  expect(lost).toBe("cut");

  const retried = await resume(server, spec);
  expect(terminal(retried)).toMatchObject({ type: "RUN_FINISHED", runId: "run-eof" });
  expect(retried.types).not.toContain("RUN_ERROR");
  expect(await ledger(server)).toHaveLength(1);
});

test("an auth failure status is answered as configured, and nothing is claimed", async () => {
  const server = await start();
  const { interrupt } = await askToDeploy(server, "t-401");
  await addFaults(server, [{ point: "before-response", action: "status", status: 401 }]);
  const spec = {
    threadId: "t-401",
    runId: "run-401",
    interruptId: interrupt.id,
    key: "key-401",
    payload: APPROVE,
  };
  const denied = await post(server, resumeBody(spec), { "idempotency-key": spec.key });
  expect(denied.status).toBe(401);
  expect(await denied.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
  expect(terminal(await resume(server, spec)).type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(1);
});

test("GET /__occurrences shows the state machine: claimed during the run, pending after a rollback with the result kept", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-view");
  const view = async () => {
    const response = await fetch(`${server.url}/__occurrences?threadId=t-view`);
    return ((await response.json()) as { occurrences: Record<string, unknown>[] }).occurrences;
  };
  expect(await view()).toMatchObject([{ interruptId: interrupt.id, state: "PENDING", claimedBy: null }]);

  await addFaults(server, [{ point: "after-tool", action: "fail" }]);
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-view",
      runId: "run-view",
      interruptId: interrupt.id,
      key: "k",
      payload: APPROVE,
    }),
    { "idempotency-key": "k" },
  );
  await reader.waitFor(() => gate.pending === 1);
  expect(await view()).toMatchObject([{ state: "EXECUTING", claimedBy: "run-view", resultStored: false }]);
  gate.releaseAll();
  await reader.done;
  expect(await view()).toMatchObject([{ state: "PENDING", claimedBy: null, resultStored: true }]);
  expect(JSON.stringify(await view())).not.toContain("approved");
});
