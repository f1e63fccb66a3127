// Answers that cannot simply be applied: the person is told, and the answer is kept.
import { approvalCard, approve, askToDeploy, cardStatus, openThread, outboxRows } from "../support/demo-page";
import { expect, test } from "../support/fixtures";

test("a never-pending interrupt: needs you, with the answer kept", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The server forgets the thread: the card on screen is stale.
  await mock.reset();

  await approve(page);
  const card = approvalCard(page);
  await expect(card).toHaveAttribute("data-state", "needs_user", { timeout: 20_000 });
  await expect(card.getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(card).toContainText("The server answered APPROVAL_RESUME_NOT_FOUND.");
  await expect(cardStatus(page)).not.toBeEmpty();
  await expect(outboxRows(page)).toHaveAttribute("data-state", "needs_user");
  expect(await mock.ledger(threadId)).toEqual([]);

  // Still kept after a reload.
  await page.reload();
  await expect(outboxRows(page)).toHaveAttribute("data-state", "needs_user");
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
});

test("indeterminate: lost, with the answer kept and an explanation", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The tool is cut off mid-run: its side effect happened, its result was never stored.
  await mock.addFaults({ point: "mid-tool", action: "fail", threadId });

  await approve(page);
  const card = approvalCard(page);
  await expect(card).toHaveAttribute("data-state", "lost", { timeout: 20_000 });
  await expect(cardStatus(page)).toHaveText("Outcome unknown — the tool may have run. Your answer is kept.");
  await expect(card.getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(card.getByRole("button", { name: "Resend as a message" })).toBeVisible();
  await expect(outboxRows(page)).toHaveAttribute("data-state", "lost");
  await expect(outboxRows(page)).toContainText("Outcome unknown — the tool may have run.");
  // Never retried automatically: the tool ran once, cut off.
  expect(await mock.ledger(threadId)).toHaveLength(1);
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["INDETERMINATE"]);
});
