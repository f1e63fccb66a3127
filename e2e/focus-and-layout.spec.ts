// Focus and layout a person relies on (issue 34, item 10): focus never falls to <body>
// after a card action, the Outbox shows one countdown and words for its states, and the
// Outbox and Ledger tables keep their words whole at 1280 px.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { approve, askToDeploy, cardStatus, openThread, outboxRows, reject } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/**
 * The words of the table cells laid out on more than one line. A hyphen is a place to
 * break (an id such as `e2e-1b812947`): the parts between hyphens are what must stay whole.
 */
async function wordsBrokenInTables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll(".tray th, .tray td")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

test("Dismiss hands focus to what follows the card, not to the page", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await page.getByTestId("dismiss").click();
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expect(page.getByLabel("Your message", { exact: true })).toBeFocused();
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("Retry now keeps focus on the card's status while the answer is sent again", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({
    point: "before-response",
    action: "status",
    status: 503,
    retryAfterMs: 30_000,
    threadId,
  });
  await approve(page);
  const row = outboxRows(page);
  await expect(row).toHaveAttribute("data-state", "retry_wait");
  // One countdown in the row: the status sentence's.
  await expect(row).toContainText(/retrying in \d+ s\./);
  // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads.
  expect((await row.innerText()).match(/\d+\s?s\b/g)).toHaveLength(1);
  await expect(row.getByTestId("outbox-state")).toHaveText("will retry");
  await expectNoAxeViolations(page);

  await page.getByTestId("retry-now").click();
  await expect(cardStatus(page)).toBeFocused();
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("at 1280 px the Outbox and Ledger keep words whole, and a delivered rejection reads as delivered", async ({
  page,
  mock,
  threadId,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openThread(page, threadId);
  await askToDeploy(page);
  await reject(page);
  await expect(cardStatus(page)).toHaveText("Rejection delivered.", { timeout: 20_000 });
  await expect(outboxRows(page).getByTestId("outbox-state")).toHaveText("delivered");

  await page.getByTestId("dismiss").click();
  await askToDeploy(page);
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await expect(page.getByTestId("ledger-row")).toHaveCount(1);
  await expect(outboxRows(page).getByTestId("outbox-state")).toHaveText(["applied"]);
  expect(await wordsBrokenInTables(page)).toEqual([]);
  await expectNoAxeViolations(page);
  expect((await mock.ledger(threadId)).map((execution) => execution.args)).toEqual([{ target: "prod" }]);
});

test("two questions keep their order on screen while they are answered", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await page.getByLabel("Your message", { exact: true }).fill("deploy to prod and staging");
  await page.getByRole("button", { name: "Send" }).click();
  const headings = page.getByTestId("approval-card").getByRole("heading", { level: 3 });
  const asked = ["Deploy to prod?", "Deploy to staging?"];
  await expect(headings).toHaveText(asked);

  // The second first: held for the other, it stays where it was asked.
  await page.getByTestId("approval-card").nth(1).getByTestId("reject").click();
  await expect(page.getByTestId("approval-card").nth(1)).toHaveAttribute("data-state", "held");
  await expect(headings).toHaveText(asked);
  await expectNoAxeViolations(page);

  await page.getByTestId("approval-card").nth(0).getByTestId("approve").click();
  await expect(page.getByTestId("approval-status")).toHaveText(["Applied.", "Rejection delivered."], {
    timeout: 20_000,
  });
  await expect(headings).toHaveText(asked);
  expect((await mock.ledger(threadId)).map((execution) => execution.args)).toEqual([{ target: "prod" }]);
});
