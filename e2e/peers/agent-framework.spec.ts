// The demo, in real Chromium, against the real Agent Framework AG-UI server (no recovery
// contract) instead of the mock: the approval card is built from its interrupt, and the
// degraded rules hold end to end. The peer speaks the mock's ledger and chaos routes.
import { expect, test } from "@playwright/test";
import { afPeerPort, afPeerUnavailable } from "../playwright.config";
import {
  approvalCard,
  approve,
  cardStatus,
  conversation,
  DEGRADED,
  newThreadId,
  openThread,
  outboxRows,
  watchResumes,
} from "../support/demo-page";
import { MockControl } from "../support/mock-control";

test.skip(afPeerUnavailable !== undefined, afPeerUnavailable);

const peer = new MockControl(`http://127.0.0.1:${afPeerPort}`);

test.beforeEach(() => peer.reset());

async function askToDeploy(page: import("@playwright/test").Page, threadId: string) {
  await openThread(page, threadId, DEGRADED);
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByRole("button", { name: "Send" }).click();
  const card = approvalCard(page);
  // Agent Framework's own question, and the argument its schema lets the person edit.
  await expect(card.getByRole("heading", { name: "Approve running deploy_change?" })).toBeVisible();
  await expect(card).toHaveAttribute("data-state", "unanswered");
  return card;
}

test("the card from its interrupt; approve → applied, the tool ran once", async ({ page }) => {
  const threadId = newThreadId("af");
  const card = await askToDeploy(page, threadId);
  await expect(card.getByRole("textbox", { name: /Target/ })).toHaveValue("prod");

  await approve(page);

  await expect(card).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  await expect(cardStatus(page)).toHaveText(/^Applied/);
  await expect(conversation(page)).toContainText("Deployed to prod.");
  const executions = await peer.ledger(threadId);
  expect(executions.map((execution) => execution.args)).toEqual([{ target: "prod" }]);
});

test("an argument edited on the card is the one the tool runs with", async ({ page }) => {
  const threadId = newThreadId("af-edit");
  const card = await askToDeploy(page, threadId);

  await card.getByRole("textbox", { name: /Target/ }).fill("staging");
  await approve(page);

  await expect(card).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  await expect(conversation(page)).toContainText("Deployed to staging.");
  const executions = await peer.ledger(threadId);
  expect(executions.map((execution) => execution.args)).toEqual([{ target: "staging" }]);
});

test("the model call failing after the tool: applied from the thread, never resent, one execution", async ({
  page,
}) => {
  const threadId = newThreadId("af-fail");
  await askToDeploy(page, threadId);
  await peer.addFaults({ point: "after-tool", action: "fail", threadId });
  const resumes = watchResumes(page);

  await approve(page);

  const card = approvalCard(page);
  await expect(card).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  await expect(card.getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(outboxRows(page)).toHaveAttribute("data-state", "applied");
  expect(resumes).toHaveLength(1);
  expect(await peer.ledger(threadId)).toHaveLength(1);

  // The verdict is durable: a reload shows it and sends nothing.
  await page.reload();
  await expect(approvalCard(page)).toHaveAttribute("data-state", "applied");
  expect(await peer.ledger(threadId)).toHaveLength(1);
});

// Agent Framework 1.7.0 given one approval and one rejection in one resume runs neither,
// shows only the rejected question again and keeps the approved one pending without
// showing it (docs/interop.md, `batch-mixed`). Neither card may say "Applied", and both
// must stay answerable: answered again, both approved, one request runs both.
test("two questions, one approved and one rejected: neither applied; both answered again, both run", async ({
  page,
}) => {
  const threadId = newThreadId("af-mixed");
  await openThread(page, threadId, DEGRADED);
  await page.getByLabel("Your message", { exact: true }).fill("deploy to prod and staging");
  await page.getByRole("button", { name: "Send" }).click();
  const cards = page.getByTestId("approval-card");
  await expect(page.locator('[data-testid="approval-card"][data-state="unanswered"]')).toHaveCount(2);
  const [prodId, stagingId] = await cards.evaluateAll((items) =>
    items.map((item) => item.getAttribute("data-interrupt-id") ?? ""),
  );
  const card = (interruptId: string | undefined) =>
    page.locator(`[data-testid="approval-card"][data-interrupt-id="${interruptId}"]`);

  await card(prodId).getByTestId("approve").click();
  await expect(card(prodId)).toHaveAttribute("data-state", "held");
  await card(stagingId).getByTestId("reject").click();
  for (const id of [prodId, stagingId])
    await expect(card(id)).toHaveAttribute("data-state", "needs_user", { timeout: 30_000 });
  for (const id of [prodId, stagingId])
    await expect(card(id).getByTestId("approval-status")).not.toHaveText(/^Applied/);
  expect(await peer.ledger(threadId)).toEqual([]);

  // Answered again from the cards, the approved one included though the server no longer shows it.
  await card(stagingId).getByTestId("approve").click();
  await expect(card(stagingId)).toHaveAttribute("data-state", "held");
  await card(prodId).getByTestId("approve").click();
  for (const id of [prodId, stagingId])
    await expect(card(id)).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  const executions = await peer.ledger(threadId);
  expect(
    executions.map((execution) => String((execution.args as { target?: unknown }).target)).sort(),
  ).toEqual(["prod", "staging"]);
});
