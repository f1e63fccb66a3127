// The demo's ledger panel stays short: past its limit it shows the latest tool
// calls with a count, and "Show all" opens the rest (and closes them again).
import { approve, askToDeploy, cardStatus, newThreadId, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/** `LEDGER_LATEST` in demo/src/components/ledger-panel.tsx. */
const LATEST = 5;

test("past its limit the ledger shows the latest calls with a count, and Show all the rest", async ({
  page,
  mock,
}) => {
  // One real execution per thread, one more than the panel shows.
  const threads: string[] = [];
  for (let run = 0; run <= LATEST; run += 1) {
    const threadId = newThreadId("ledger");
    threads.push(threadId);
    await openThread(page, threadId);
    await askToDeploy(page);
    await approve(page);
    await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  }
  const executions = await Promise.all(threads.map((threadId) => mock.ledger(threadId)));
  expect(executions.map((rows) => rows.length)).toEqual(threads.map(() => 1));

  const panel = page.getByTestId("ledger-panel");
  const rows = panel.getByTestId("ledger-row");
  const toggle = panel.getByTestId("ledger-toggle");
  await expect(panel.getByTestId("ledger-total")).toHaveAttribute("data-count", String(LATEST + 1));
  await expect(rows).toHaveCount(LATEST);
  await expect(panel.getByTestId("ledger-shown")).toHaveText(
    `The latest ${LATEST} of ${LATEST + 1} tool calls.`,
  );
  // Newest first: the first thread's call is the one folded away.
  await expect(rows.first()).toContainText(threads.at(-1) ?? "");
  await expect(panel).not.toContainText(threads[0] ?? "");
  await expect(toggle).toHaveText(`Show all ${LATEST + 1}`);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  await toggle.click();
  await expect(rows).toHaveCount(LATEST + 1);
  await expect(panel.getByTestId("ledger-shown")).toHaveText(`${LATEST + 1} tool calls.`);
  await expect(rows.last()).toContainText(threads[0] ?? "");
  await expect(toggle).toHaveText(`Show the latest ${LATEST}`);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");

  await toggle.click();
  await expect(rows).toHaveCount(LATEST);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});
