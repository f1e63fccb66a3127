// An interrupt that expired before the answer reached the server: needs you, answer kept.
// Runs in the "short-ttl" project, whose mock server expires interrupts in seconds.
import type { Page } from "@playwright/test";
import { shortInterruptTtlMs } from "../playwright.config";
import { approvalCard, approve, askToDeploy, cardStatus, openThread, outboxRows } from "../support/demo-page";
import { expect, test } from "../support/fixtures";
import type { MockControl } from "../support/mock-control";

/** Waits until the server's deadline for the open question has passed. */
async function waitForExpiry(page: Page, mock: MockControl, threadId: string): Promise<void> {
  const [occurrence] = await mock.occurrences(threadId);
  const expiresAt = Date.parse(String((occurrence as { expiresAt?: unknown } | undefined)?.expiresAt));
  expect(Number.isFinite(expiresAt)).toBe(true);
  const left = expiresAt - Date.now();
  expect(left).toBeLessThanOrEqual(shortInterruptTtlMs);
  await page.waitForTimeout(Math.max(0, left) + 200);
}

test("an expired interrupt: needs you, with the answer kept", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await waitForExpiry(page, mock, threadId);

  await approve(page);
  const card = approvalCard(page);
  await expect(card).toHaveAttribute("data-state", "needs_user", { timeout: 20_000 });
  await expect(card.getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(card).toContainText("The server answered APPROVAL_RESUME_EXPIRED.");
  await expect(cardStatus(page)).not.toBeEmpty();
  await expect(outboxRows(page)).toHaveAttribute("data-state", "needs_user");
  expect(await mock.ledger(threadId)).toEqual([]);
});
