import { conversation, openThread } from "../support/demo-page";
import { expect, test } from "../support/fixtures";

// The background-run report's sequence, as a person lives it: the tool ran, the
// submission of its result failed, the page was reloaded; the run goes on with
// its saved token, the stored result is resubmitted, and the tool ran once.
test("a background run survives a reload after a failed submission and the tool runs once", async ({
  page,
  mock,
  threadId,
}) => {
  await mock.addFaults({
    point: "background-submit",
    action: "status",
    status: 503,
    retryAfterMs: 2000,
    threadId,
  });
  await openThread(page, threadId);
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByTestId("send-background").click();

  const run = page.getByTestId("background-run");
  await expect(run).toHaveAttribute("data-verdict", "retry_wait");
  expect(await mock.ledger(threadId)).toHaveLength(1);

  await page.reload();
  await expect(run).toHaveAttribute("data-verdict", "completed", { timeout: 15_000 });
  await expect(conversation(page).getByText("Deployed to prod.")).toHaveCount(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
