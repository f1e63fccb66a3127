// The approval card in every decision × state (the demo's /#gallery, rendered from a
// frozen client: no network, no timers), checked with axe-core and kept as reviewed
// pictures at a laptop and a phone width.
import { expect, test } from "@playwright/test";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  expectTargetsAtLeast44px,
  expectVisibleFocus,
  WIDTHS,
} from "./layout-checks";

// decision × state: 3 decisions × 13 states, plus the unanswered question.
const CASE_COUNT = 40;

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });

    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.goto("/#gallery");
      await expect(page.getByTestId("gallery-case")).toHaveCount(CASE_COUNT);
      await page.evaluate(() => document.fonts.ready);
    });

    test("every card state: no axe violation, no horizontal scroll, 44 px targets, visible focus", async ({
      page,
    }) => {
      await expectNoAxeViolations(page);
      await expectNoHorizontalScroll(page);
      await expectTargetsAtLeast44px(page);
      await expectVisibleFocus(page, ".gallery__grid");
    });

    test("every card state matches its reviewed picture", async ({ page }) => {
      const cases = page.getByTestId("gallery-case");
      const names = await cases.evaluateAll((nodes) =>
        nodes.map((node) => node.getAttribute("data-case") ?? ""),
      );
      expect(names).toHaveLength(CASE_COUNT);
      for (const name of names) {
        // Alone on the page, so its position (and so its pixels) never depends on the other cards.
        await page.evaluate((hash) => {
          globalThis.location.hash = hash;
        }, `#gallery/${name}`);
        const card = page.locator(
          `[data-testid="gallery-single"][data-case="${name}"] [data-testid="approval-card"]`,
        );
        // The tolerance is the config's (e2e/playwright.config.ts): one changed word fails.
        await expect(card).toHaveScreenshot(`${name}-${width}.png`);
      }
    });
  });
}
