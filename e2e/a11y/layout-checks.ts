// Checks every page of the accessibility specs shares: axe-core, page width, target size.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The widths the demo and the card must work at: a laptop and a phone. */
export const WIDTHS = [1280, 390] as const;

/** WCAG 2.x A and AA, plus axe's best practices (landmarks, heading order, …). */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Runs axe-core on the page (or a part of it) and expects no violation at all. */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const readable = violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(readable).toEqual([]);
}

/** The page is no wider than the viewport: nothing needs a horizontal scroll. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(
    widths.scroll,
    `page is ${widths.scroll} px wide in a ${widths.client} px viewport`,
  ).toBeLessThanOrEqual(widths.client);
}

/**
 * Every visible control is at least 44 × 44 px (WCAG 2.5.5). A checkbox counts
 * with the label it sits in: the label is its click target.
 */
export async function expectTargetsAtLeast44px(page: Page, within = "body"): Promise<void> {
  const small = await page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) return [`no ${selector}`];
    const controls = root.querySelectorAll<HTMLElement>("button, input, select, textarea, a[href], summary");
    const found: string[] = [];
    for (const control of controls) {
      const own = control.getBoundingClientRect();
      if (own.width === 0 && own.height === 0) continue;
      const label = control.closest("label");
      const box = label && control instanceof HTMLInputElement ? label.getBoundingClientRect() : own;
      if (box.height < 44 || box.width < 44) {
        const name = control.getAttribute("aria-label") ?? control.textContent?.trim() ?? "";
        found.push(
          `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : ""} "${name || (label?.textContent ?? "")}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return found;
  }, within);
  expect(small).toEqual([]);
}

/**
 * Every focusable control shows a visible outline when focused from the keyboard.
 * One key press puts the page in keyboard modality; the controls are then focused
 * and measured inside the page in one pass (a round trip per control made this
 * the slowest check of a page under load).
 */
export async function expectVisibleFocus(page: Page, within = "body"): Promise<void> {
  await page.keyboard.press("Shift");
  const { checked, missing } = await page.evaluate((selector) => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>(`${selector} :is(button, input, select)`),
    ].filter((control) => control.checkVisibility() && !(control as HTMLButtonElement).disabled);
    const missing: string[] = [];
    for (const control of controls) {
      control.focus();
      const style = getComputedStyle(control);
      // Not focus-visible (or no outline) is what a keyboard user would miss.
      if (
        !control.matches(":focus-visible") ||
        style.outlineStyle === "none" ||
        Number.parseFloat(style.outlineWidth) < 2
      )
        missing.push(control.outerHTML.slice(0, 80));
    }
    return { checked: controls.length, missing };
  }, within);
  expect(checked, `no focusable control in ${within}`).toBeGreaterThan(0);
  expect(missing).toEqual([]);
}
