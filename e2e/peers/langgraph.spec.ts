// The demo, in real Chromium, against the real LangGraph AG-UI server (ag-ui-langgraph,
// no recovery contract) instead of the mock: the approval card is built from the
// graph's interrupt(), and the rules for servers without the contract hold end to end.
// The peer speaks the mock's ledger and chaos routes.
import { expect, type Page, test } from "@playwright/test";
import { langGraphPeerPort, langGraphPeerUnavailable } from "../playwright.config";
import {
  approvalCard,
  approve,
  cardStatus,
  conversation,
  DEGRADED,
  newThreadId,
  openThread,
  outboxRows,
  reject,
  watchResumes,
} from "../support/demo-page";
import { MockControl } from "../support/mock-control";

test.skip(langGraphPeerUnavailable !== undefined, langGraphPeerUnavailable);

const peer = new MockControl(`http://127.0.0.1:${langGraphPeerPort}`);

test.beforeEach(() => peer.reset());

async function askToDeploy(page: Page, threadId: string) {
  // The thread's hydration must end before the message goes: the adapter runs both on
  // the thread's checkpoint, and a hydration that ends last shows the thread without
  // the new question (a race between two runs of one thread; see docs/interop.md).
  const hydration = page.waitForResponse(
    (response) => response.url().endsWith("/agent") && response.request().method() === "POST",
  );
  await openThread(page, threadId, DEGRADED);
  await hydration;
  await expect(page.getByText("Loading the conversation…")).toBeHidden();
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByRole("button", { name: "Send" }).click();
  const card = approvalCard(page);
  // The graph's own question (its interrupt's message), and the argument its schema lets the person edit.
  await expect(card.getByRole("heading", { name: "Approve running deploy_change?" })).toBeVisible();
  await expect(card).toHaveAttribute("data-state", "unanswered");
  return card;
}

test("the card from its interrupt; an edited argument is the one the tool runs with, one request", async ({
  page,
}) => {
  const threadId = newThreadId("lg");
  const card = await askToDeploy(page, threadId);
  await expect(card.getByRole("textbox", { name: /Target/ })).toHaveValue("prod");
  const resumes = watchResumes(page);

  await card.getByRole("textbox", { name: /Target/ }).fill("staging");
  await approve(page);

  await expect(card).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  await expect(cardStatus(page)).toHaveText(/^Applied/);
  await expect(conversation(page)).toContainText("Deployed to staging.");
  expect(resumes).toHaveLength(1);
  const executions = await peer.ledger(threadId);
  expect(executions.map((execution) => execution.args)).toEqual([{ target: "staging" }]);
});

test("reject: the rejection is delivered and nothing runs", async ({ page }) => {
  const threadId = newThreadId("lg-reject");
  const card = await askToDeploy(page, threadId);

  await reject(page);

  await expect(card).toHaveAttribute("data-state", "applied", { timeout: 30_000 });
  await expect(conversation(page)).toContainText("User rejected the tool call");
  expect(await peer.ledger(threadId)).toHaveLength(0);
});

test("the model call failing after the tool: applied from the thread, never resent, one execution", async ({
  page,
}) => {
  const threadId = newThreadId("lg-fail");
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
