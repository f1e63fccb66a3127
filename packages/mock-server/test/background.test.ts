import { type BackgroundResponse, BackgroundResponseSchema } from "@agui-outbox/core/protocol";
import { expect, test } from "vitest";
import type { MockServer } from "../src/index";
import { addFaults, gatedSleep, ledger, manualClock, post, start, tempStatePath } from "./support/harness";

async function startBackground(server: MockServer, threadId: string, text = "please deploy to prod") {
  const response = await post(
    server,
    JSON.stringify({
      threadId,
      runId: `${threadId}-bg`,
      messages: [{ id: `${threadId}-m1`, role: "user", content: text }],
      forwardedProps: { background: true },
    }),
  );
  expect(response.status).toBe(202);
  return BackgroundResponseSchema.parse(await response.json());
}

async function poll(server: MockServer, continuationToken: string) {
  const response = await fetch(`${server.url}/agent/background/poll`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ continuationToken }),
  });
  const body = (await response.json()) as unknown;
  return { status: response.status, response, body };
}

async function pollOk(server: MockServer, token: string): Promise<BackgroundResponse> {
  const { status, body } = await poll(server, token);
  expect(status, JSON.stringify(body)).toBe(200);
  return BackgroundResponseSchema.parse(body);
}

const types = (response: BackgroundResponse) => response.events.map((event) => event.type);

/** The first poll stops at the deploy's question: nothing has run. */
async function pollToQuestion(server: MockServer, token: string) {
  const asked = await pollOk(server, token);
  expect(asked.status).toBe("interrupted");
  const finished = asked.events.at(-1) as { type: string; outcome?: { interrupts?: { id: string }[] } };
  expect(finished.type).toBe("RUN_FINISHED");
  expect(await ledger(server)).toHaveLength(0);
  return { asked, interruptId: finished.outcome?.interrupts?.[0]?.id ?? "" };
}

/** Answers the question as the outbox does (a resume with its key), reading the whole stream. */
async function answer(server: MockServer, threadId: string, interruptId: string, approved = true) {
  const key = `key-${threadId}-${interruptId}`;
  const body = {
    threadId,
    runId: `${threadId}-resume`,
    messages: [],
    resume: [{ interruptId, status: "resolved", payload: { approved } }],
  };
  const response = await post(server, JSON.stringify(body), { "idempotency-key": key });
  return response.text();
}

/** Starts a deploy, approves its question, and returns the token the run goes on with. */
async function startApproved(server: MockServer, threadId: string) {
  const started = await startBackground(server, threadId);
  const { asked, interruptId } = await pollToQuestion(server, started.continuationToken ?? "");
  await answer(server, threadId, interruptId);
  expect(await ledger(server)).toHaveLength(1);
  return { started, asked, held: asked.continuationToken ?? "" };
}

test("start returns a continuation token; polling advances the run to completion, one execution", async () => {
  const server = await start();
  const started = await startBackground(server, "t-bg");
  expect(started).toMatchObject({ status: "queued", runId: "t-bg-bg", lastSeq: 1 });
  expect(types(started)).toEqual(["RUN_STARTED"]);
  expect(started.events[0]?.metadata).toMatchObject({
    "x-background": {
      continuationToken: started.continuationToken,
      pollPath: "/agent/background/poll",
    },
  });

  const { asked, interruptId } = await pollToQuestion(server, started.continuationToken ?? "");
  expect(types(asked)).toContain("TOOL_CALL_START");
  expect(await answer(server, "t-bg", interruptId)).toContain("TOOL_CALL_RESULT");
  expect(await ledger(server)).toHaveLength(1);

  // The answer applied, the run goes on as a new AG-UI run on the thread.
  const first = await pollOk(server, asked.continuationToken ?? "");
  expect(first.status).toBe("in_progress");
  expect(types(first)).toEqual(["RUN_STARTED"]);
  expect(first.continuationToken).not.toBe(asked.continuationToken);
  expect(first.events[0]?.metadata).toMatchObject({
    "x-stream": { runId: "t-bg-bg", seq: asked.lastSeq + 1 },
  });

  const second = await pollOk(server, first.continuationToken ?? "");
  expect(second).toMatchObject({ status: "completed", continuationToken: null, error: null });
  expect(types(second).at(-1)).toBe("RUN_FINISHED");
  expect(await ledger(server)).toEqual([
    expect.objectContaining({ name: "deploy_change", args: { target: "prod" } }),
  ]);

  const status = await (await fetch(`${server.url}/agent/runs/t-bg-bg`)).json();
  expect(status).toMatchObject({ status: "finished", continuationToken: null, lastSeq: second.lastSeq });
  const capabilities = (await (await fetch(`${server.url}/agent/capabilities`)).json()) as {
    custom: Record<string, { background?: unknown }>;
  };
  expect(capabilities.custom["x-recovery"]?.background).toEqual({ pollPath: "/agent/background/poll" });
});

test("the reference sequence: approved tool → submission 429 → re-poll with the held token: one execution, the stored result delivered", async () => {
  const server = await start();
  const { held } = await startApproved(server, "t-429");
  await addFaults(server, [{ point: "background-submit", action: "status", status: 429, retryAfterMs: 500 }]);

  const failed = await poll(server, held);
  expect(failed.status).toBe(429);
  expect(failed.response.headers.get("retry-after")).toBe("1");
  expect(failed.body).toMatchObject({ error: { code: "RATE_LIMITED" } });
  expect(await ledger(server)).toHaveLength(1);

  const repolled = await pollOk(server, held);
  expect(repolled.status).toBe("in_progress");
  // The events of the failed poll arrive now, once.
  expect(types(repolled)).toEqual(["RUN_STARTED"]);
  expect(await ledger(server)).toHaveLength(1);

  const done = await pollOk(server, repolled.continuationToken ?? "");
  expect(done.status).toBe("completed");
  expect(await ledger(server)).toHaveLength(1);
});

test("a submission refused for good fails the run with BACKGROUND_TOOL_DELIVERY_REJECTED", async () => {
  const server = await start();
  const { held } = await startApproved(server, "t-rejected");
  await addFaults(server, [{ point: "background-submit", action: "fail" }]);
  const failed = await pollOk(server, held);
  expect(failed).toMatchObject({
    status: "failed",
    continuationToken: null,
    error: { code: "BACKGROUND_TOOL_DELIVERY_REJECTED" },
  });
  expect(failed.events.at(-1)).toMatchObject({
    type: "RUN_ERROR",
    code: "BACKGROUND_TOOL_DELIVERY_REJECTED",
  });
  // Re-polling the same token repeats the answer; it does not run the tool again.
  expect(await pollOk(server, held)).toEqual(failed);
  expect(await ledger(server)).toHaveLength(1);
});

test("two concurrent polls of one token: one proceeds, the other gets BACKGROUND_POLL_IN_PROGRESS", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const started = await startBackground(server, "t-race");
  const { interruptId, asked } = await pollToQuestion(server, started.continuationToken ?? "");
  const answered = answer(server, "t-race", interruptId);
  await expect.poll(() => gate.pending).toBe(1); // the approved tool
  gate.releaseAll();
  await answered;
  // The poll that goes on holds the run while its submission waits.
  await addFaults(server, [{ point: "background-submit", action: "delay", delayMs: 1000 }]);
  const token = asked.continuationToken ?? "";
  const first = poll(server, token);
  await expect.poll(() => gate.pending).toBe(1);
  const second = await poll(server, token);
  expect(second.status).toBe(409);
  expect(second.body).toMatchObject({ error: { code: "BACKGROUND_POLL_IN_PROGRESS" } });
  gate.releaseAll();
  expect((await first).status).toBe(200);
  expect(await ledger(server)).toHaveLength(1);
});

test("a stale token gets BACKGROUND_TOKEN_STALE and an unknown one BACKGROUND_TOKEN_UNKNOWN, never a re-run", async () => {
  const server = await start();
  const started = await startBackground(server, "t-stale");
  const first = await pollOk(server, started.continuationToken ?? "");
  const stale = await poll(server, started.continuationToken ?? "");
  expect(stale.status).toBe(409);
  expect(stale.body).toMatchObject({ error: { code: "BACKGROUND_TOKEN_STALE" } });
  const unknown = await poll(server, "bgt_unknown");
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ error: { code: "BACKGROUND_TOKEN_UNKNOWN" } });
  const status = (await (await fetch(`${server.url}/agent/runs/t-stale-bg`)).json()) as Record<
    string,
    unknown
  >;
  // Waiting for its answer, the run is not over: the status names the token to poll with.
  expect(status).toMatchObject({ continuationToken: first.continuationToken, terminal: null });
  expect(await ledger(server)).toHaveLength(0);
});

test("an approved tool cut off mid-execution with no stored result is BACKGROUND_TOOL_RESULT_INDETERMINATE", async () => {
  const server = await start();
  const started = await startBackground(server, "t-cut");
  const { asked, interruptId } = await pollToQuestion(server, started.continuationToken ?? "");
  await addFaults(server, [{ point: "mid-tool", action: "fail" }]);
  expect(await answer(server, "t-cut", interruptId)).toContain("APPROVAL_RESUME_INDETERMINATE");
  const held = asked.continuationToken ?? "";
  const failed = await pollOk(server, held);
  expect(failed).toMatchObject({ status: "failed", error: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" } });
  expect(await pollOk(server, held)).toEqual(failed);
  expect(await ledger(server)).toHaveLength(1);
});

test("state survives a crash: a crash during submission, restart, re-poll delivers the stored result once", async () => {
  const path = tempStatePath();
  const clock = manualClock();
  const options = { store: { kind: "file", path } as const, clock, claimLeaseMs: 1_000 };
  const first = await start(options);
  const { started, asked, held } = await startApproved(first, "t-crash");
  await addFaults(first, [{ point: "background-submit", action: "crash" }]);
  // The server dies mid-request: the poll fails with it.
  await poll(first, held).catch(() => undefined);
  await first.crashed;

  const second = await start(options);
  expect(await ledger(second)).toHaveLength(1);
  // The dead poll's lease still holds the run.
  expect((await poll(second, held)).body).toMatchObject({ error: { code: "BACKGROUND_POLL_IN_PROGRESS" } });
  clock.advance(1_001);
  const repolled = await pollOk(second, held);
  expect(repolled.status).toBe("in_progress");
  const done = await pollOk(second, repolled.continuationToken ?? "");
  expect(done.status).toBe("completed");
  // One log across the restart: seqs stay gap-free.
  const seqs = [...started.events, ...asked.events, ...repolled.events, ...done.events].map(
    (event) => (event.metadata as { "x-stream": { seq: number } })["x-stream"].seq,
  );
  expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  expect(await ledger(second)).toHaveLength(1);
});

test("a crash mid-tool: after the restart the re-poll reports INDETERMINATE and never re-runs", async () => {
  const path = tempStatePath();
  const clock = manualClock();
  const options = { store: { kind: "file", path } as const, clock, claimLeaseMs: 1_000 };
  const first = await start(options);
  const started = await startBackground(first, "t-crash-mid");
  const { asked, interruptId } = await pollToQuestion(first, started.continuationToken ?? "");
  await addFaults(first, [{ point: "mid-tool", action: "crash" }]);
  // The server dies inside the tool: the answer's request fails with it.
  await answer(first, "t-crash-mid", interruptId).catch(() => undefined);
  await first.crashed;

  const second = await start(options);
  clock.advance(1_001);
  const failed = await pollOk(second, asked.continuationToken ?? "");
  expect(failed).toMatchObject({ status: "failed", error: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" } });
  expect(await ledger(second)).toHaveLength(1);
});

test("a background request without a deploy completes with a plain reply and no tool", async () => {
  const server = await start();
  const started = await startBackground(server, "t-chat", "hello");
  const done = await pollOk(server, started.continuationToken ?? "");
  expect(done.status).toBe("completed");
  expect(await ledger(server)).toHaveLength(0);
});

function startBody(threadId: string, text = "please deploy to prod"): string {
  return JSON.stringify({
    threadId,
    runId: `${threadId}-bg`,
    messages: [{ id: `${threadId}-m1`, role: "user", content: text }],
    forwardedProps: { background: true },
  });
}

test("a start repeated with its Idempotency-Key answers with the same run and token, and starts no second run", async () => {
  const server = await start();
  const headers = { "idempotency-key": "bg-key-1" };
  const first = await post(server, startBody("t-bg-idem"), headers);
  expect(first.status).toBe(202);
  const started = BackgroundResponseSchema.parse(await first.json());

  const again = await post(server, startBody("t-bg-idem"), headers);
  expect(again.status).toBe(202);
  const repeated = BackgroundResponseSchema.parse(await again.json());
  expect(repeated.runId).toBe(started.runId);
  expect(repeated.continuationToken).toBe(started.continuationToken);
  expect(types(repeated)).toEqual(["RUN_STARTED"]);

  // The run advances once whichever answer the client kept.
  const { asked, interruptId } = await pollToQuestion(server, repeated.continuationToken ?? "");
  await answer(server, "t-bg-idem", interruptId);
  const goes = await pollOk(server, asked.continuationToken ?? "");
  const done = await pollOk(server, goes.continuationToken ?? "");
  expect(done.status).toBe("completed");
  expect(await ledger(server)).toHaveLength(1);

  // After the run advanced, a late repeat still names the same run and its current state.
  const late = BackgroundResponseSchema.parse(
    await (await post(server, startBody("t-bg-idem"), headers)).json(),
  );
  expect(late).toMatchObject({ runId: started.runId, status: "completed", continuationToken: null });
  expect(await ledger(server)).toHaveLength(1);
});

test("a start key reused with another body is refused (422) and starts nothing", async () => {
  const server = await start();
  const headers = { "idempotency-key": "bg-key-2" };
  expect((await post(server, startBody("t-bg-reuse"), headers)).status).toBe(202);
  const reused = await post(server, startBody("t-bg-reuse", "please deploy to staging"), headers);
  expect(reused.status).toBe(422);
  expect(await reused.json()).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REUSED" } });
});
