// Signing out with an answer not yet sent asks first, naming it (issue 34, item 3). Kept,
// it stays under its user's namespace, untouched by another user, and is delivered once
// when that user signs in again; discarded, nothing runs and the question stays open.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y/layout-checks";
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  openThread,
  readStoredEntries,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/** Asks, goes offline, approves: the answer waits on this device. */
async function approveOffline(page: Page, threadId: string): Promise<void> {
  await openThread(page, threadId);
  await askToDeploy(page);
  await page.getByLabel("Offline", { exact: true }).check();
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Offline — will send when back.");
}

/** Clicks Sign out and expects the question naming the one unsent answer. */
async function signOutAsked(page: Page): Promise<void> {
  await page.getByTestId("sign-out").click();
  const confirm = page.getByRole("alertdialog", { name: "1 answer is not sent yet" });
  await expect(confirm.getByTestId("unsent-answer")).toHaveText(["“Deploy to prod?” — You approved."]);
  await expect(confirm.getByRole("button", { name: "Keep them and sign out" })).toBeFocused();
  await expectNoAxeViolations(page);
}

async function aliceEntries(page: Page, threadId: string) {
  return (await readStoredEntries(page)).filter(
    (entry) => entry.namespace === "demo:alice" && entry.threadId === threadId,
  );
}

test("Stay signed in closes the question and changes nothing", async ({ page, mock, threadId }) => {
  await approveOffline(page, threadId);
  await signOutAsked(page);
  await page.getByRole("button", { name: "Stay signed in" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByTestId("sign-out")).toBeFocused();
  expect(await aliceEntries(page, threadId)).toHaveLength(1);
  expect(await mock.ledger(threadId)).toEqual([]);
});

test("kept at sign-out, the answer waits for alice (bob sends nothing) and is delivered once when she is back", async ({
  page,
  mock,
  threadId,
}) => {
  await approveOffline(page, threadId);
  await signOutAsked(page);
  await page.getByRole("button", { name: "Keep them and sign out" }).click();
  await expect(page.getByTestId("signed-out-text")).toHaveText(
    "1 unsent answer is kept in this browser and will be sent when alice signs in again.",
  );
  await expectNoAxeViolations(page);
  // Still waiting in alice's namespace, whatever its retry schedule says.
  expect((await aliceEntries(page, threadId)).map((entry) => entry.decision)).toEqual([{ kind: "approve" }]);

  // bob signs in, online: alice's answer is not his to send.
  await page.getByLabel("User").selectOption("bob");
  await page.getByTestId("sign-in").click();
  await page.getByLabel("Offline", { exact: true }).uncheck();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-leader", "true");
  await expect(page.getByTestId("outbox-entry")).toHaveCount(0);
  expect(await mock.resumeKeys(threadId)).toEqual([]);
  expect(await aliceEntries(page, threadId)).toHaveLength(1);

  // alice is back: her kept answer goes out, once.
  await page.getByLabel("User").selectOption("alice");
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await expectNoAxeViolations(page);
  expect((await mock.ledger(threadId)).map((execution) => execution.args)).toEqual([{ target: "prod" }]);
  expect(await mock.resumeKeys(threadId)).toHaveLength(1);
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["RESOLVED"]);
});

test("discarded at sign-out, nothing runs and the question is still there to answer", async ({
  page,
  mock,
  threadId,
}) => {
  await approveOffline(page, threadId);
  await signOutAsked(page);
  await page.getByRole("button", { name: "Discard them and sign out" }).click();
  await expect(page.getByTestId("signed-out-text")).toHaveText(
    "Your answers stored in this browser were deleted. Sign in to start again.",
  );
  expect(await aliceEntries(page, threadId)).toEqual([]);

  await page.getByLabel("Offline", { exact: true }).uncheck();
  await page.getByTestId("sign-in").click();
  const card = approvalCard(page);
  await expect(card).toHaveAttribute("data-state", "unanswered");
  await expect(card.getByTestId("approve")).toBeEnabled();
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toEqual([]);
  expect(await mock.resumeKeys(threadId)).toEqual([]);
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["PENDING"]);
});
