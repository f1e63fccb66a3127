import { MemoryStore } from "@agui-outbox/core";
import { expect, test } from "vitest";
import { chaos, ledger, makeClient, settled, startHarness, until } from "../../core/test/integration/harness";
import { type BackgroundRunRecord, type BackgroundRunsPlugin, backgroundRuns } from "../src/index";

function finalRun(background: BackgroundRunsPlugin, runId: string): Promise<BackgroundRunRecord> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const run = background.runs.getState().runs.find((candidate) => candidate.runId === runId);
      if (run && ["completed", "lost", "needs_user"].includes(run.verdict)) {
        stop();
        clearTimeout(timer);
        resolve(run);
      }
    };
    const stop = background.runs.subscribe(check);
    const timer = setTimeout(() => {
      stop();
      reject(new Error("the background run did not finish"));
    }, 15_000);
    check();
  });
}

test("a background run started from the client completes, and a reload mid-run resumes it without re-running the tool", async () => {
  const harness = await startHarness();
  const storage = new MemoryStore();
  const background = backgroundRuns();
  const first = makeClient(harness, { storage, plugins: [background] });
  await first.start();
  await chaos(harness, [{ point: "background-submit", action: "status", status: 503, retryAfterMs: 1000 }]);

  const run = await background.start({ threadId: "t-bg", text: "please deploy to prod" });
  // The run asks first; the person approves through the outbox, and the tool runs in that answer.
  const thread = first.thread("t-bg").store;
  await until(() => thread.getState().pendingInterrupts.length === 1, "the question");
  expect(await ledger(harness)).toHaveLength(0);
  const [question] = thread.getState().pendingInterrupts;
  const answer = await first.answer({ threadId: "t-bg", interruptId: question?.id ?? "", approved: true });
  expect((await settled(first, answer.key)).state).toBe("applied");
  // The run goes on; its result's submission fails: the page dies while the run
  // waits to resubmit the stored result.
  await new Promise<void>((resolve) => {
    const stop = background.runs.subscribe(({ runs }) => {
      if (runs.some((candidate) => candidate.runId === run.runId && candidate.verdict === "retry_wait")) {
        stop();
        resolve();
      }
    });
  });
  expect(await ledger(harness)).toHaveLength(1);
  first.dispose();

  const resumed = backgroundRuns();
  const next = makeClient(harness, { storage, plugins: [resumed] });
  await next.start();
  const final = await finalRun(resumed, run.runId);

  expect(final.verdict).toBe("completed");
  expect(
    next
      .thread("t-bg")
      .store.getState()
      .messages.some((m) => m.role === "assistant" && m.content === "Deployed to prod."),
  ).toBe(true);
  expect(await ledger(harness)).toHaveLength(1);
});
