// A background run whose tool needs approval asks first: the run pauses with the same
// card a streamed run shows, nothing runs until the answer is applied, and the answer
// goes through the outbox like any other (key, durability, verdict).
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../a11y/layout-checks";
import { approvalCard, approve, cardStatus, conversation, openThread, reject } from "../support/demo-page";
import { expect, test } from "../support/fixtures";
import type { MockControl } from "../support/mock-control";

async function deployInBackground(page: Page): Promise<void> {
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByTestId("send-background").click();
  await expect(page.getByTestId("background-run")).toHaveCount(1);
}

/** The card is up and the run waits on it: nothing has run. */
async function expectAsked(page: Page, mock: MockControl, threadId: string): Promise<void> {
  const card = approvalCard(page);
  await expect(card.getByRole("heading", { name: "Deploy to prod?" })).toBeVisible({ timeout: 20_000 });
  await expect(card).toHaveAttribute("data-state", "unanswered");
  await expect(page.getByTestId("background-run")).toHaveAttribute("data-status", "interrupted");
  expect(await mock.ledger(threadId)).toHaveLength(0);
}

function backgroundRun(page: Page) {
  return page.getByTestId("background-run");
}

test("approve: the run waits for the answer, then the tool runs once and the run completes", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await deployInBackground(page);
  await expectAsked(page, mock, threadId);
  await expectNoAxeViolations(page);

  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await expect(backgroundRun(page)).toHaveAttribute("data-verdict", "completed", { timeout: 20_000 });
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  await expectNoAxeViolations(page);
});

test("reject: nothing runs and the run completes saying so", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await deployInBackground(page);
  await expectAsked(page, mock, threadId);

  await reject(page);
  await expect(backgroundRun(page)).toHaveAttribute("data-verdict", "completed", { timeout: 20_000 });
  await expect(conversation(page)).toContainText("Okay, I won't deploy.");
  expect(await mock.ledger(threadId)).toHaveLength(0);
  await expectNoAxeViolations(page);
});

test("a reload right after starting still shows the card; approving then runs the tool once", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await deployInBackground(page);
  await page.reload();

  await expectAsked(page, mock, threadId);
  await expectNoAxeViolations(page);
  await approve(page);
  await expect(backgroundRun(page)).toHaveAttribute("data-verdict", "completed", { timeout: 20_000 });
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
