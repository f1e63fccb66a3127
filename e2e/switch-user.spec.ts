// Switching user and back, or signing out and in again, keeps each user's conversation
// and open question on screen without a reload (issue 34, item 2): the page shows what
// the server holds for the user signed in, and the question is still open there.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { approvalCard, askToDeploy, conversation, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/** Marks the document, so a check after the journey can tell it was never reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as { journeyMark?: boolean }).journeyMark = true;
  });
}

async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as { journeyMark?: boolean }).journeyMark === true);
}

/** alice's turn and her open question, back on screen within 5 s. */
async function expectAliceBack(page: Page): Promise<void> {
  await expect(conversation(page).locator('[data-role="user"]')).toHaveText([/please deploy to prod$/], {
    timeout: 5_000,
  });
  const card = approvalCard(page);
  await expect(card.getByRole("heading", { name: "Deploy to prod?" })).toBeVisible({ timeout: 5_000 });
  await expect(card).toHaveAttribute("data-state", "unanswered");
}

test("switching to bob and back to alice, and signing out and in again, keeps alice's conversation and open question without a reload", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await markDocument(page);

  // bob on the same thread: his own, empty conversation.
  await page.getByLabel("User").selectOption("bob");
  await expect(page.getByRole("status")).toContainText("recovery contract v1");
  await expect(conversation(page).getByRole("listitem")).toHaveCount(0);
  await expect(approvalCard(page)).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByLabel("User").selectOption("alice");
  await expectAliceBack(page);
  await expectNoAxeViolations(page);

  // Nothing answered, so signing out asks nothing.
  await page.getByTestId("sign-out").click();
  await page.getByTestId("signed-out").waitFor();
  await expectNoAxeViolations(page);
  await page.getByTestId("sign-in").click();
  await expectAliceBack(page);
  expect(await stillSameDocument(page)).toBe(true);

  // The question is open at the server and nothing ran.
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["PENDING"]);
  expect(await mock.ledger(threadId)).toEqual([]);
});
