// Background runs: the continuation token is kept on disk, so a reload picks the run up
// where it was, and a failed submission is resubmitted, never re-executed. The deploy
// asks first (background-approval.spec.ts); these start once it is approved.
import type { Page } from "@playwright/test";
import { approvalCard, approve, conversation, openThread } from "../support/demo-page";
import { expect, test } from "../support/fixtures";

async function runInBackground(page: Page): Promise<void> {
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByTestId("send-background").click();
  await expect(page.getByTestId("background-run")).toHaveCount(1);
  await approvalCard(page).getByRole("heading", { name: "Deploy to prod?" }).waitFor();
  await approve(page);
}

function watchPolls(page: Page): string[] {
  const polls: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/agent/background/poll")
      polls.push(request.postData() ?? "");
  });
  return polls;
}

test("a reload while a background run's approved tool executes re-attaches, one execution", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  // The approved tool pauses mid-execution: its side effect is in the ledger.
  await mock.addFaults({ point: "mid-tool", action: "delay", delayMs: 2000, threadId });
  await runInBackground(page);
  await expect.poll(async () => (await mock.ledger(threadId)).length).toBe(1);

  const polls = watchPolls(page);
  await page.reload();

  const run = page.getByTestId("background-run");
  await expect(run).toHaveAttribute("data-verdict", "completed", { timeout: 30_000 });
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(polls.length).toBeGreaterThanOrEqual(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("a failed submission is resubmitted on re-poll after a reload, one execution", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  // The tool runs, then handing its output back fails twice (transiently).
  await mock.addFaults({
    point: "background-submit",
    action: "status",
    status: 503,
    retryAfterMs: 1000,
    times: 2,
    threadId,
  });
  await runInBackground(page);
  const run = page.getByTestId("background-run");
  await expect(run).toHaveAttribute("data-verdict", "retry_wait", { timeout: 10_000 });
  expect(await mock.ledger(threadId)).toHaveLength(1);

  await page.reload();
  await expect(page.getByTestId("background-run")).toHaveAttribute("data-verdict", "completed", {
    timeout: 30_000,
  });
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  expect(await mock.pendingFaults()).toEqual([]);
});

test("a submission refused for good: lost, the person is told the tool ran", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await mock.addFaults({ point: "background-submit", action: "fail", threadId });
  await runInBackground(page);

  const run = page.getByTestId("background-run");
  await expect(run).toHaveAttribute("data-verdict", "lost", { timeout: 20_000 });
  await expect(run).toContainText(/The tool ran, but its result could not be delivered/);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
