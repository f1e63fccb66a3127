// A second tab or device answering differently: one answer applies, the other is shown as
// answered elsewhere, and the tool runs at most once.
import type { Page } from "@playwright/test";
import {
  approvalCard,
  askToDeploy,
  cardStatus,
  conversation,
  openThread,
  outboxRows,
} from "../support/demo-page";
import { expect, test } from "../support/fixtures";

async function trayStates(page: Page): Promise<string[]> {
  const states = await outboxRows(page).evaluateAll((rows) =>
    rows.map((row) => row.getAttribute("data-state") ?? ""),
  );
  return states.sort();
}

test("a second tab answering differently: the winner shows applied with its own decision, the other answered elsewhere with the recorded one", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const second = await context.newPage();
  await openThread(second, threadId);
  await expect(approvalCard(second)).toHaveAttribute("data-state", "unanswered");
  // Hold the run after the claim, so both answers are given while the first is in flight.
  await mock.addFaults({ point: "after-claim", action: "delay", delayMs: 1500, threadId });

  // Both clicks dispatched at once, as DOM clicks on the buttons found beforehand. A
  // Playwright click would wait for its button, and the second tab's button may be gone
  // by then (the first answer reached that tab): a click on a button no longer in the
  // page does nothing, as a person's would.
  const approveButton = await approvalCard(page).getByTestId("approve").elementHandle();
  const rejectButton = await approvalCard(second).getByTestId("reject").elementHandle();
  await Promise.all(
    [approveButton, rejectButton].map((button) =>
      button?.evaluate((element) => (element as HTMLElement).click()),
    ),
  );

  // Tabs of one browser mirror each other at once, so the second click can land
  // after the first answer already reached its tab: then that card shows the first
  // answer and takes no second one. Either way both tabs must agree, and when the
  // second answer did get in, both show it as answered elsewhere.
  const settled = async (tab: typeof page) => {
    const states = await trayStates(tab);
    return states.length > 0 && states.every((state) => state === "applied" || state === "elsewhere")
      ? states
      : [];
  };
  await expect.poll(() => settled(page), { timeout: 20_000 }).not.toEqual([]);
  const states = await settled(page);
  await expect.poll(() => settled(second), { timeout: 20_000 }).toEqual(states);
  expect(states.filter((state) => state === "applied")).toHaveLength(1);
  const executions = await mock.ledger(threadId);
  const statusOf = async (tab: Page) => (await cardStatus(tab).textContent()) ?? "";
  if (states.length === 2) {
    // Each tab shows its own truth: the tab whose answer won says applied with its own
    // decision; the other says answered elsewhere, with the decision that was recorded.
    expect(states).toEqual(["applied", "elsewhere"]);
    // The winner's sentence names its own decision ("Applied." for this tab's
    // approval, "Rejection delivered." for the other tab's rejection): checked below.
    const verdictOf = (text: string) =>
      text.startsWith("Answered elsewhere")
        ? "elsewhere"
        : /^(Applied|Rejection delivered)\./.test(text)
          ? "won"
          : text;
    await expect
      .poll(async () => [verdictOf(await statusOf(page)), verdictOf(await statusOf(second))].sort(), {
        timeout: 10_000,
      })
      .toEqual(["elsewhere", "won"]);
    const [winner, loser] = (await statusOf(page)).startsWith("Answered elsewhere")
      ? [second, page]
      : [page, second];
    const winnerApproved = winner === page;
    await expect(cardStatus(winner)).toHaveText(winnerApproved ? /^Applied\./ : /^Rejection delivered\./);
    await expect(approvalCard(winner).getByTestId("approval-decision")).toHaveText(
      winnerApproved ? "You approved." : "You rejected.",
    );
    await expect(cardStatus(loser)).toHaveText(
      winnerApproved ? /^Answered elsewhere: it was approved/ : /^Answered elsewhere: it was rejected/,
    );
    expect(executions).toHaveLength(winnerApproved ? 1 : 0);
    return;
  }
  // One answer got in: both cards tell its story (each settles on its own, so wait for them to agree).
  const statuses = async () => [await statusOf(page), await statusOf(second)];
  await expect.poll(async () => new Set(await statuses()).size, { timeout: 10_000 }).toBe(1);
  // Whichever answer was written first decided; the tool ran only if that was the approval.
  const approved = await page.locator('[data-testid="outbox-entry"][data-state="applied"]').textContent();
  expect(executions).toHaveLength(approved?.includes("approved") ? 1 : 0);
});

test("another device answering differently: answered elsewhere with the recorded decision", async ({
  page,
  browser,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const device = await browser.newContext();
  try {
    const other = await device.newPage();
    await openThread(other, threadId);
    await expect(approvalCard(other)).toHaveAttribute("data-state", "unanswered");

    await approvalCard(page).getByTestId("approve").click();
    await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
    await approvalCard(other).getByTestId("reject").click();

    // The server's recorded decision, in words.
    await expect(cardStatus(other)).toHaveText("Answered elsewhere: it was approved.", { timeout: 20_000 });
    await expect(approvalCard(other).getByTestId("approval-decision")).toHaveText("You rejected.");
    await expect(outboxRows(other)).toHaveAttribute("data-state", "elsewhere");
    // The losing device also shows what the agent said after the winning answer, unasked.
    await expect(conversation(other)).toContainText("Deployed to prod.", { timeout: 5_000 });
    await expect(cardStatus(page)).toHaveText("Applied.");
    expect(await mock.ledger(threadId)).toHaveLength(1);
  } finally {
    await device.close();
  }
});
