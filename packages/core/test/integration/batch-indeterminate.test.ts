import { expect, test } from "vitest";
import {
  chaos,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  resumes,
  settled,
  startHarness,
} from "./harness";

// Two questions answered in one resume; the first tool is cut off mid-execution
// (its side effect happened, no result stored). The server's RUN_ERROR
// APPROVAL_RESUME_INDETERMINATE is about that tool only: the other question is
// back to PENDING and its tool never ran. Each answer gets its own verdict from
// the evidence: "lost" only for the one that may have run.

interface OccurrenceView {
  readonly interruptId: string;
  readonly state: string;
  readonly resultStored: boolean;
}

async function occurrences(url: string, threadId: string): Promise<OccurrenceView[]> {
  const response = await fetch(`${url}/__occurrences?threadId=${threadId}`);
  return ((await response.json()) as { occurrences: OccurrenceView[] }).occurrences;
}

test("a batch whose first tool is cut off: that answer lost, the other kept (its question open again), ledger 1", async () => {
  const harness = await startHarness();
  const log: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
  await client.start();
  const thread = client.thread("t-cut-batch");
  await thread.send("deploy to prod and staging");
  const [prod, staging] = thread.store.getState().pendingInterrupts;
  if (!prod || !staging) throw new Error("two interrupts expected");
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);

  const first = await client.answer({ threadId: "t-cut-batch", interruptId: prod.id, approved: true });
  const second = await client.answer({ threadId: "t-cut-batch", interruptId: staging.id, approved: true });
  const [a, b] = await Promise.all([settled(client, first.key), settled(client, second.key)]);

  // One request, under the sender's key; the first tool the server ran was cut off.
  const sent = resumes(log);
  expect(sent.map((request) => request.idempotencyKey)).toEqual([second.key]);
  const executions = await ledger(harness);
  expect(executions).toHaveLength(1);
  const [cut, kept] = a.toolCallId === executions[0]?.toolCallId ? [a, b] : [b, a];
  expect(cut.toolCallId).toBe(executions[0]?.toolCallId);

  const server = await occurrences(harness.server.url, "t-cut-batch");
  const stateOf = (interruptId: string) => server.find((one) => one.interruptId === interruptId)?.state;
  expect(stateOf(cut.interruptId)).toBe("INDETERMINATE");
  expect(stateOf(kept.interruptId)).toBe("PENDING");

  expect(cut.state).toBe("lost");
  expect(cut.lastError?.code).toBe("APPROVAL_RESUME_INDETERMINATE");
  // Nothing ran for the other (the ledger): not lost, kept for the person to send again on its own.
  expect(kept.state).toBe("needs_user");
  expect(kept.decision).toEqual({ kind: "approve" });
  expect(kept.verdictDetail).toMatch(/open again/);
  // Its question is open again on the client too, so it can be answered.
  await expect
    .poll(() => thread.store.getState().pendingInterrupts.map((interrupt) => interrupt.id))
    .toEqual([kept.interruptId]);
});

// The first tool ran (its result stored and streamed), the second was cut off. The
// server rolled the first back to PENDING keeping its result: the run never finished,
// so "applied" would claim more than the server holds, and "lost" less. The answer is
// kept; sent again on its own it finishes with the stored result, never running twice.
test("a batch whose second tool is cut off: the first kept and finished by a resend (never run twice), the second lost", async () => {
  const harness = await startHarness();
  const log: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(log) } });
  await client.start();
  const thread = client.thread("t-cut-second");
  await thread.send("deploy to prod and staging");
  const [prod, staging] = thread.store.getState().pendingInterrupts;
  if (!prod || !staging) throw new Error("two interrupts expected");
  // The first tool passes the point unharmed, the second is cut off there.
  await chaos(harness, [
    { point: "mid-tool", action: "delay", delayMs: 0 },
    { point: "mid-tool", action: "fail" },
  ]);

  const first = await client.answer({ threadId: "t-cut-second", interruptId: prod.id, approved: true });
  const second = await client.answer({ threadId: "t-cut-second", interruptId: staging.id, approved: true });
  const [a, b] = await Promise.all([settled(client, first.key), settled(client, second.key)]);

  expect(resumes(log).map((request) => request.idempotencyKey)).toEqual([second.key]);
  const executions = (await ledger(harness)).map((execution) => execution.toolCallId);
  expect(executions).toHaveLength(2);
  const [ran, cut] = a.toolCallId === executions[0] ? [a, b] : [b, a];
  expect(cut.toolCallId).toBe(executions[1]);
  const server = await occurrences(harness.server.url, "t-cut-second");
  const viewOf = (interruptId: string) => server.find((one) => one.interruptId === interruptId);
  expect(viewOf(cut.interruptId)?.state).toBe("INDETERMINATE");
  expect(viewOf(ran.interruptId)).toMatchObject({ state: "PENDING", resultStored: true });

  expect(cut.state).toBe("lost");
  expect(ran.state).toBe("needs_user");
  expect(ran.verdictDetail).toMatch(/open again/);

  // Sent again on its own: finished with the stored result, the tool not run again.
  await expect
    .poll(() => thread.store.getState().pendingInterrupts.map((interrupt) => interrupt.id))
    .toEqual([ran.interruptId]);
  const again = await client.answer({
    threadId: "t-cut-second",
    interruptId: ran.interruptId,
    approved: true,
  });
  expect((await settled(client, again.key)).state).toBe("applied");
  expect(await ledger(harness)).toHaveLength(2);
  const after = await occurrences(harness.server.url, "t-cut-second");
  expect(after.find((one) => one.interruptId === ran.interruptId)?.state).toBe("RESOLVED");
  expect(resumes(log).map((request) => request.idempotencyKey)).toEqual([second.key, again.key]);
});
