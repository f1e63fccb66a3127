// After a reload the conversation and the card are the ones the person left: the
// question stays with the answer, and a tool result streamed before the reload is
// still in the conversation.
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  conversation,
  openThread,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

test("pause after the tool, reload: the tool's result message is in the conversation", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({ point: "after-tool", action: "delay", delayMs: 2500, threadId });
  await approve(page);
  await expect.poll(async () => (await mock.ledger(threadId)).length).toBe(1);
  await page.reload();

  await expect(cardStatus(page)).toHaveText(/^Applied/, { timeout: 20_000 });
  await expect(conversation(page).locator('[data-role="tool"]')).toHaveCount(1);
  // The card still asks the question it was answered for.
  await expect(approvalCard(page).getByRole("heading", { name: "Deploy to prod?" })).toBeVisible();
  await expect(approvalCard(page)).toContainText("Proposed: deploy_change");
});

test("a user switch and back shows the same answered card", async ({ page, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  const users = page.getByLabel("User");
  const [first, second] = await users.locator("option").allTextContents();
  if (!first || !second) throw new Error("the demo lists fewer than two users");
  await users.selectOption(second);
  await expect(approvalCard(page)).toHaveCount(0);
  await users.selectOption(first);
  await expect(approvalCard(page).getByRole("heading", { name: "Deploy to prod?" })).toBeVisible();
  await expect(cardStatus(page)).toHaveText("Applied.");
});
