// Two devices on a run with two questions: the laptop approves one (held until both are
// answered), the phone rejects both. When the laptop's window is focused again it reads
// the thread and shows the truth without the person acting: its held answer was never
// sent (answered elsewhere), the other question is closed, and nothing ran.
import { expectNoAxeViolations } from "../a11y/layout-checks";
import { approvalCard, openThread, outboxRows } from "../support/demo-page";
import { expect, test } from "../support/fixtures";

const ASKED = ["Deploy to prod?", "Deploy to staging?"];

test("a held answer shows answered elsewhere within 5 s of focus once another device answered the run", async ({
  page,
  browser,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await page.getByLabel("Your message", { exact: true }).fill("deploy to prod and staging");
  await page.getByRole("button", { name: "Send" }).click();
  const headings = (on: typeof page) => approvalCard(on).getByRole("heading", { level: 3 });
  await expect(headings(page)).toHaveText(ASKED);
  await approvalCard(page).nth(0).getByTestId("approve").click();
  await expect(approvalCard(page).nth(0)).toHaveAttribute("data-state", "held");

  const device = await browser.newContext();
  try {
    const phone = await device.newPage();
    await openThread(phone, threadId);
    await expect(headings(phone)).toHaveText(ASKED);
    await approvalCard(phone).nth(0).getByTestId("reject").click();
    await approvalCard(phone).nth(1).getByTestId("reject").click();
    await expect(approvalCard(phone).getByTestId("approval-status")).toHaveText(
      ["Rejection delivered.", "Rejection delivered."],
      { timeout: 20_000 },
    );
  } finally {
    await device.close();
  }
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual([
    "REJECTED",
    "REJECTED",
  ]);

  // The person comes back to the laptop's window.
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(outboxRows(page)).toHaveAttribute("data-state", "elsewhere", { timeout: 5000 });
  await expect(approvalCard(page)).toHaveCount(1);
  await expect(approvalCard(page).getByTestId("approval-status")).toHaveText(
    /^Answered elsewhere: .*Nothing was sent from here\.$/,
  );
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toEqual([]);
});
