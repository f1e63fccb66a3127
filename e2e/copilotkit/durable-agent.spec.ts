// The CopilotKit example: an ordinary `useInterrupt` card on DurableHttpAgent, in real
// Chromium against the mock server. Each scenario asserts at the server (the ledger) and
// runs @ag-ui/client's own event verification over every run the agent's subscribers saw.
import { type BaseEvent, verifyEvents } from "@ag-ui/client";
import type { Page } from "@playwright/test";
import { from, lastValueFrom, toArray } from "rxjs";
import { copilotkitUnavailable } from "../copilotkit.config";
import { expect, test } from "../support/fixtures";

test.skip(copilotkitUnavailable !== undefined, copilotkitUnavailable);

const card = (page: Page) => page.getByTestId("approval-card");
const answerStatus = (page: Page) => page.getByTestId("answer-status");
const conversation = (page: Page) => page.getByTestId("conversation");

async function openThread(page: Page, threadId: string): Promise<void> {
  await page.goto(`/?thread=${encodeURIComponent(threadId)}`);
  await expect(page.getByTestId("link")).toContainText("connected");
}

async function askToDeploy(page: Page): Promise<void> {
  await page.getByTestId("chat-input").fill("please deploy to prod");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(card(page)).toBeVisible();
}

/** Every run this page's agent emitted, as its subscribers saw them, through `verifyEvents`. */
async function verifyRuns(page: Page): Promise<number> {
  const runs = (await page.evaluate(
    () => (window as { __aguiRuns?: unknown[][] }).__aguiRuns ?? [],
  )) as BaseEvent[][];
  const events = runs.flat();
  await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
  return runs.length;
}

async function messageTexts(page: Page): Promise<string[]> {
  return page.getByTestId("message").allInnerTexts();
}

test("answer, reload during delivery: applied in the new page, ledger 1, the card not shown again", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The server holds the resume before claiming it: the reload lands mid-delivery.
  await mock.addFaults({ point: "before-claim", action: "delay", delayMs: 2500, threadId });
  await card(page).getByRole("button", { name: "Approve" }).click();
  await expect(answerStatus(page)).toHaveAttribute("data-state", "sending");
  await page.reload();

  await expect(answerStatus(page)).toHaveAttribute("data-state", "applied", { timeout: 20_000 });
  await expect(page.getByTestId("verdict")).toHaveAttribute("data-verdict", "applied");
  await expect(conversation(page)).toContainText("Deployed to prod.");
  await expect(card(page)).toHaveCount(0);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  expect(await verifyRuns(page)).toBeGreaterThanOrEqual(1);
});

test("a rejection: the page says it was delivered, never applied; ledger 0", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await card(page).getByRole("button", { name: "Reject" }).click();
  await expect(answerStatus(page)).toHaveAttribute("data-state", "applied", { timeout: 20_000 });
  // The sentences @agui-outbox/react's card uses: a rejection ran nothing.
  await expect(answerStatus(page)).toHaveText("You rejected. Rejection delivered.");
  await expect(page.getByTestId("verdict")).toHaveText("Rejection delivered.");
  expect(await mock.ledger(threadId)).toEqual([]);
});

test("offline, answer, online: applied, ledger 1", async ({ page, context, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await context.setOffline(true);
  await expect(page.getByTestId("link")).toHaveAttribute("data-online", "false");
  await card(page).getByRole("button", { name: "Approve" }).click();
  // Kept in IndexedDB while offline; nothing reached the server.
  await expect(answerStatus(page)).toHaveAttribute("data-state", /queued|sending|retry_wait/);
  expect(await mock.ledger(threadId)).toHaveLength(0);

  await context.setOffline(false);
  await expect(answerStatus(page)).toHaveAttribute("data-state", "applied", { timeout: 20_000 });
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  expect(await verifyRuns(page)).toBeGreaterThanOrEqual(2);
});

test("a dropped stream: the conversation matches the hydrated thread, no message twice", async ({
  page,
  browser,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await mock.addFaults({ point: "mid-stream", action: "drop", afterEvents: 3, threadId });
  await askToDeploy(page);
  // The stream was cut (the fault fired) and the page still shows the whole turn.
  expect(await mock.pendingFaults()).toEqual([]);
  const shown = await messageTexts(page);

  // Another browser, which knows the thread only from the server's hydration.
  const other = await browser.newContext();
  const hydrated = await other.newPage();
  await openThread(hydrated, threadId);
  await expect(card(hydrated)).toBeVisible();
  expect(await messageTexts(hydrated)).toEqual(shown);
  expect(new Set(shown).size).toBe(shown.length);
  expect(await verifyRuns(page)).toBeGreaterThanOrEqual(2);
  expect(await verifyRuns(hydrated)).toBeGreaterThanOrEqual(1);
  await other.close();
});

test("a second tab answering differently: it shows answered elsewhere, ledger 1", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const second = await context.newPage();
  await openThread(second, threadId);
  await expect(card(second)).toBeVisible();

  await card(page).getByRole("button", { name: "Approve" }).click();
  await expect(answerStatus(page)).toHaveAttribute("data-state", "applied", { timeout: 20_000 });
  await card(second).getByRole("button", { name: "Reject" }).click();

  await expect(second.getByTestId("verdict")).toHaveAttribute("data-verdict", "answered_elsewhere");
  await expect(second.getByTestId("verdict")).toContainText("Answered elsewhere");
  await expect(card(second)).toHaveCount(0);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  await verifyRuns(page);
  await verifyRuns(second);
});
