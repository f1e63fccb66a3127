import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@agui-outbox/core";
import { startMockServer } from "@agui-outbox/mock-server";
import { expect, test } from "vitest";
import { chaos, ledger, startHarness } from "../../core/test/integration/harness";
import {
  answer,
  heldWhen,
  isAsking,
  isFinal,
  makeRunner,
  recordingThreads,
  runReaches,
} from "./background-support";

// An approved tool cut off in the answer's resume: its side effect may or may
// not have happened, so the run is lost (indeterminate) and the tool is never
// run again, whoever polls next.

test("a tool cut off mid-execution: lost (indeterminate), never re-run", async () => {
  const harness = await startHarness();
  const { threads } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, time, polls } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-indeterminate", text: "please deploy to prod" });
  const asked = await asking;
  await chaos(harness, [{ point: "mid-tool", action: "fail" }]);
  expect(await answer(harness, threads, asked)).toContain("APPROVAL_RESUME_INDETERMINATE");
  time.release();
  const done = await runReaches(runner, started.runId, isFinal);

  expect(done).toMatchObject({
    verdict: "lost",
    rule: "indeterminate",
    lastError: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" },
  });
  expect(done.verdictReason).toMatch(/may or may not/);
  // The question, then the held token's poll that reports the cut.
  expect(polls.map((poll) => [poll.token, poll.status])).toEqual([
    [started.continuationToken, 200],
    [asked.continuationToken, 200],
  ]);
  expect(await ledger(harness)).toHaveLength(1);
  // Asking again changes nothing: a lost run is final and is not polled.
  await runner.retryNow(started.runId);
  expect(runner.get(started.runId)?.verdict).toBe("lost");
  expect(polls).toHaveLength(2);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a server crash mid-tool, restart on its file store: the held token reports indeterminate, ledger stays 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "outbox-bg-crash-"));
  const serverStore = { kind: "file", path: join(dir, "state.json") } as const;
  let serverNow = Date.now();
  const clock = { now: () => serverNow };
  const harness = await startHarness({ store: serverStore, clock, claimLeaseMs: 1_000 });
  const { threads } = recordingThreads();
  const setup = makeRunner(harness, { store: new MemoryStore(), threads });
  const { runner, time, polls } = setup;
  runner.activate();
  const asking = heldWhen(setup, isAsking);
  const started = await runner.start({ threadId: "t-crash", text: "please deploy to prod" });
  const asked = await asking;
  await chaos(harness, [{ point: "mid-tool", action: "crash" }]);
  await answer(harness, threads, asked).catch(() => "");
  await harness.server.crashed;

  // The next poll finds no server: it waits in retry_wait with the held token.
  const failing = heldWhen(setup, (run) => run.verdict === "retry_wait");
  time.release();
  const waiting = await failing;
  expect(waiting.lastError?.kind).toBe("network");
  expect(waiting.continuationToken).toBe(asked.continuationToken);

  const restarted = await startMockServer({
    port: harness.server.port,
    store: serverStore,
    clock,
    claimLeaseMs: 1_000,
    toolDurationMs: 5,
  });
  try {
    // The dead resume's claim lapses on the server's clock.
    serverNow += 1_001;
    time.release();
    const done = await runReaches(runner, started.runId, isFinal);
    expect(done).toMatchObject({
      verdict: "lost",
      lastError: { code: "BACKGROUND_TOOL_RESULT_INDETERMINATE" },
    });
    expect(polls.map((poll) => poll.token)).toEqual([
      started.continuationToken,
      asked.continuationToken,
      asked.continuationToken,
    ]);
    const executions = (await (await fetch(`${restarted.url}/__ledger`)).json()) as { executions: unknown[] };
    expect(executions.executions).toHaveLength(1);
  } finally {
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
