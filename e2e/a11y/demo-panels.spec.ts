// The demo as a person uses it, at a laptop and a phone width: every panel passes
// axe-core, nothing scrolls sideways, every control is a 44 px target with visible
// focus, and a question can be answered with the keyboard alone.
import type { Page } from "@playwright/test";
import {
  approvalCard,
  askToDeploy,
  cardStatus,
  DEGRADED,
  openThread,
  readStoredEntries,
} from "../support/demo-page";
import { expect, test } from "../support/fixtures";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  expectTargetsAtLeast44px,
  expectVisibleFocus,
  WIDTHS,
} from "./layout-checks";

/** Presses Tab until the element matching `selector` has focus (never more than 80 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let step = 0; step < 80; step += 1) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);
}

/** Writes the request and sends it with the keyboard alone (Send empties the composer). */
async function askByKeyboard(page: Page): Promise<void> {
  await tabTo(page, '[data-testid="composer-input"]');
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("please deploy to prod");
  await page.keyboard.press("Enter");
  await approvalCard(page).getByRole("heading", { name: "Deploy to prod?" }).waitFor();
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("every demo panel, before and after answering: axe, no sideways scroll, 44 px targets, visible focus", async ({
      page,
      mock,
      threadId,
    }) => {
      await mock.reset();
      await page.emulateMedia({ reducedMotion: "reduce" });
      await openThread(page, threadId);
      await askToDeploy(page);
      await expectNoAxeViolations(page);
      await expectNoHorizontalScroll(page);
      await expectTargetsAtLeast44px(page);

      await approvalCard(page).getByTestId("approve").click();
      await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
      await expect(page.getByTestId("ledger-row")).toHaveCount(1);
      await expect(page.getByTestId("outbox-entry")).toHaveCount(1);
      await expectNoAxeViolations(page);
      await expectNoHorizontalScroll(page);
      await expectTargetsAtLeast44px(page);
      await expectVisibleFocus(page);
    });

    test("signed out and back in: axe, no sideways scroll, 44 px targets, visible focus", async ({
      page,
      threadId,
    }) => {
      await openThread(page, threadId);
      await page.getByTestId("sign-out").click();
      await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
      await expectNoAxeViolations(page);
      await expectNoHorizontalScroll(page);
      await expectTargetsAtLeast44px(page);
      await expectVisibleFocus(page);
      // Signing in by keyboard: the select names who, the button signs in.
      await tabTo(page, '[data-testid="sign-in"]');
      await page.keyboard.press("Enter");
      await openThread(page, threadId);
      await expect(page.getByTestId("sign-out")).toBeEnabled();
    });

    test("keyboard only: edit and approve, then reject; focus lands on the card's status each time", async ({
      page,
      mock,
      threadId,
    }) => {
      await openThread(page, threadId);
      await askByKeyboard(page);
      await tabTo(page, '[data-testid="approval-field-target"]');
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("staging");
      await tabTo(page, '[data-testid="approve"]');
      await expect(page.getByTestId("approve")).toHaveText("Approve with edits");
      await page.keyboard.press("Enter");
      await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
      expect(await focusedTestId(page)).toBe("approval-status");
      const [approved] = await readStoredEntries(page);
      expect(approved?.decision).toEqual({ kind: "approve", editedArgs: { target: "staging" } });
      expect(await mock.ledger(threadId)).toHaveLength(1);

      // Dismiss the verdict, ask again and reject, still by keyboard.
      await tabTo(page, '[data-testid="dismiss"]');
      await page.keyboard.press("Enter");
      await expect(approvalCard(page)).toHaveCount(0);
      await askByKeyboard(page);
      await tabTo(page, '[data-testid="approval-card"][data-state="unanswered"] [data-testid="reject"]');
      await page.keyboard.press("Space");
      await expect(cardStatus(page)).toHaveText("Rejection delivered.", { timeout: 20_000 });
      expect(await focusedTestId(page)).toBe("approval-status");
      // The rejection ran nothing.
      expect(await mock.ledger(threadId)).toHaveLength(1);
    });
  });
}

test("nothing scrolls sideways at 320 px", async ({ page, threadId }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await openThread(page, threadId);
  await askToDeploy(page);
  await expectNoHorizontalScroll(page);
});

test("a server without background runs: the button is disabled and says why", async ({
  page,
  mock,
  threadId,
}) => {
  await mock.setMode("af-legacy");
  await openThread(page, threadId, DEGRADED);
  await expect(page.getByTestId("send-background")).toBeDisabled();
  await expect(page.getByTestId("background-unsupported")).toHaveText(
    "This server does not support background runs.",
  );
  await expect(page.getByTestId("send-background")).toHaveAccessibleDescription(
    "This server does not support background runs.",
  );
});

test("an offline reload says Offline, not that the agent is unreachable", async ({ page, threadId }) => {
  await openThread(page, threadId);
  await page.getByLabel("Offline", { exact: true }).check();
  await page.reload();
  await expect(page.getByTestId("connection")).toContainText(
    "Offline: answers are kept and sent when you are back",
  );
  await expect(page.getByTestId("connection")).not.toContainText("unreachable");
  // The conversation could not be read: it says so, with a way to try again, instead of staying blank.
  await expect(page.getByTestId("hydration-error")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("hydration-error").getByRole("button", { name: "Try again" })).toBeVisible();
});
