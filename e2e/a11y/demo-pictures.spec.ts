// The demo as a person sees it, at a phone and a laptop width, compared with reviewed
// pictures: the question asked, then answered. The thread id is fixed (the mock is
// reset before each test) so the text is the same on every run; what still varies
// between runs is masked. The tolerance is the config's: one changed word fails.
import type { Locator, Page } from "@playwright/test";
import { approvalCard, askToDeploy, cardStatus, openThread } from "../support/demo-page";
import { expect, test } from "../support/fixtures";
import { WIDTHS } from "./layout-checks";

const THREAD = "e2e-pictures";

/** What legitimately differs from run to run: the tool call's id (the agent makes a new one each run). */
function varying(page: Page): Locator[] {
  return [page.getByTestId("ledger-row").locator("td").first().locator(".muted")];
}

async function expectPicture(page: Page, name: string): Promise<void> {
  // The inspector's button is the last thing the page loads (a chunk of its own).
  await page.getByTestId("inspector-toggle").waitFor();
  await page.evaluate(() => document.fonts.ready);
  // The id's width would move the ledger's columns: a fixed one of the same shape keeps
  // the layout of any run, and the mask covers it.
  await varying(page)[0]?.evaluateAll((nodes) => {
    for (const node of nodes) node.textContent = "call_00000000-0000-4000-8000-000000000000";
  });
  await expect(page).toHaveScreenshot(name, { fullPage: true, mask: varying(page) });
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });

    test("the demo asking, then answered, matches its reviewed pictures", async ({ page, mock }) => {
      await mock.reset();
      await page.emulateMedia({ reducedMotion: "reduce" });
      await openThread(page, THREAD);
      await askToDeploy(page);
      await page.getByLabel("Your message", { exact: true }).blur();
      await expectPicture(page, `demo-asking-${width}.png`);

      await approvalCard(page).getByTestId("approve").click();
      await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
      await expect(page.getByTestId("ledger-row")).toHaveCount(1);
      // The card's status takes focus after an answer: keep the ring out of the picture.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await expectPicture(page, `demo-answered-${width}.png`);
    });
  });
}
