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
