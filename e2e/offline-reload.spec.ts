// A reload while offline says "offline", not that the server lacks a feature, and names no
// bare route (issue 34, item 9); back online, the conversation and its question return.
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { approvalCard, askToDeploy, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

test("reloaded offline, the page says it is offline; back online, the conversation and question return", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await page.getByLabel("Offline", { exact: true }).check();
  await page.reload();

  await expect(page.getByTestId("hydration-error")).toContainText(
    "The conversation could not be loaded: you are offline. It loads again when you are back.",
  );
  await expect(page.getByTestId("background-unsupported")).toHaveText(
    "You are offline: a background run needs the server.",
  );
  const chat = page.getByRole("region", { name: /^Conversation/ });
  await expect(chat).not.toContainText("does not support background runs");
  await expect(chat).not.toContainText(/The request to \/ failed/);
  await expectNoAxeViolations(page);

  await page.getByLabel("Offline", { exact: true }).uncheck();
  await expect(approvalCard(page)).toHaveAttribute("data-state", "unanswered");
  await expect(page.getByTestId("hydration-error")).toHaveCount(0);
  await expect(page.getByTestId("background-unsupported")).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["PENDING"]);
  expect(await mock.ledger(threadId)).toEqual([]);
});
