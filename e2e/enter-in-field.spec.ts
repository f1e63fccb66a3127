// One keystroke never answers (issue 34): Enter in an edited argument leaves the question
// open, the answer is a press of its button, and Send empties the composer so a second
// Enter there does not ask again.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { askToDeploy, cardStatus, conversation, openThread, readStoredEntries } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

test("Enter in the Target field answers nothing; Approve with edits then deploys the edit once", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  const card = await askToDeploy(page);
  const target = card.getByRole("textbox", { name: /Target/ });
  await target.fill("eu-west");
  await target.press("Enter");

  // The person is still in the field, the question still open, nothing saved or sent.
  await expect(target).toBeFocused();
  await expect(card).toHaveAttribute("data-state", "unanswered");
  expect(await readStoredEntries(page)).toEqual([]);
  expect(await mock.ledger(threadId)).toEqual([]);
  await expectNoAxeViolations(page);

  // The button is what answers: one resume, one execution, with the edit.
  await card.getByRole("button", { name: "Approve with edits" }).click();
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await expectNoAxeViolations(page);
  const executions = await mock.ledger(threadId);
  expect(executions.map((execution) => execution.args)).toEqual([{ target: "eu-west" }]);
  expect(await mock.resumeKeys(threadId)).toHaveLength(1);
});

test("Send empties the composer, so a second Enter there asks nothing", async ({ page, threadId }) => {
  await openThread(page, threadId);
  const composer = page.getByLabel("Your message", { exact: true });
  await composer.fill("please deploy to prod");
  await composer.press("Enter");
  await askedOnce(page);
  await expect(composer).toHaveValue("");
  await expect(composer).toBeFocused();

  await composer.press("Enter");
  await askedOnce(page);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

/** The conversation holds the one request and the card its one question. */
async function askedOnce(page: Page): Promise<void> {
  await page.getByTestId("approval-card").getByRole("heading", { name: "Deploy to prod?" }).waitFor();
  await expect(conversation(page).locator('[data-role="user"]')).toHaveCount(1);
  await expect(page.getByTestId("approval-card")).toHaveCount(1);
}
