// The outbox inspector (@agui-outbox/react/devtools) in the demo: an answer's timeline
// through a retry, the link and the tab's role, and "Copy as JSON" for a bug report,
// which carries no answer content unless the app allows it.
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  expectTargetsAtLeast44px,
  expectVisibleFocus,
  WIDTHS,
} from "./a11y/layout-checks";
import { askToDeploy, cardStatus, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

// A value only the person typed: it must not reach a bug report.
const EDITED_TARGET = "eu-canary-7731";

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    test(`the inspector shows an answer's timeline through a retry; its JSON holds no answer`, async ({
      page,
      mock,
      threadId,
    }) => {
      await openThread(page, threadId);
      const toggle = page.getByTestId("inspector-toggle");
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      const inspector = page.getByRole("region", { name: "Outbox inspector" });
      await expect(inspector).toContainText("The outbox is empty.");
      await expect(page.getByTestId("inspector-server-kind")).toHaveText("contract (from capabilities)");
      await expect(page.getByTestId("inspector-link")).toHaveText("connected");
      await expect(page.getByTestId("inspector-tab")).toHaveText("sending (this tab holds the lock)");

      const card = await askToDeploy(page);
      // The first resume is refused with a 503; the second goes through.
      await mock.addFaults({
        point: "before-response",
        action: "status",
        status: 503,
        retryAfterMs: 1000,
        threadId,
      });
      await card.getByRole("textbox", { name: /Target/ }).fill(EDITED_TARGET);
      await card.getByRole("button", { name: "Approve with edits" }).click();
      await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });

      const entry = inspector.getByTestId("inspector-entry");
      await expect(entry).toHaveAttribute("data-state", "applied");
      await expect(entry.getByTestId("inspector-attempts")).toHaveText("2");
      await expect(entry.getByTestId("inspector-rule")).not.toHaveText("none yet");
      const steps = entry.getByTestId("inspector-step");
      const whats = await steps.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-what")));
      // In order (a step the store published within one commit of the next, such as
      // streaming, may be folded into it): answered, sent, refused and waiting, sent again, applied.
      expect(whats[0]).toBe("answered");
      expect(whats.at(-1)).toBe("applied");
      const retry = whats.indexOf("retry_wait");
      expect(whats.slice(1, retry)).toContain("sending");
      expect(whats.slice(retry + 1)).toContain("sending");
      // The retry step names the attempt, the rule that decided it and the server's answer.
      await expect(steps.nth(retry)).toContainText(
        /attempt 1 · next try [\d:.]+ · rule http-transient · http 503 SERVICE_UNAVAILABLE/,
      );
      await expect(steps.nth(retry + 1)).toContainText("attempt 2");
      // The truth at the server: two arrivals under one key, one execution, with the edit.
      const keys = await mock.resumeKeys(threadId);
      expect(keys).toHaveLength(2);
      expect(new Set(keys).size).toBe(1);
      expect((await mock.ledger(threadId)).map((execution) => execution.args)).toEqual([
        { target: EDITED_TARGET },
      ]);
      await expectNoAxeViolations(page);
      await expectNoHorizontalScroll(page);
      await expectTargetsAtLeast44px(page, '[data-testid="outbox-devtools"]');
      await expectVisibleFocus(page, '[data-testid="outbox-devtools"]');

      await inspector.getByRole("button", { name: "Copy as JSON" }).click();
      await expect(page.getByTestId("inspector-copied")).toHaveText("Copied 1 entry.");
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const report = JSON.parse(copied) as {
        connection: { link: string; tab: string; serverKind: string };
        entries: {
          key: string;
          state: string;
          attempts: number;
          rule: string;
          timeline: { what: string }[];
        }[];
      };
      expect(report.connection).toMatchObject({ link: "connected", tab: "sending", serverKind: "contract" });
      expect(report.entries).toHaveLength(1);
      expect(report.entries[0]).toMatchObject({ key: keys[0], state: "applied", attempts: 2 });
      expect(report.entries[0]?.timeline.map((step) => step.what)).toEqual(whats);
      for (const content of [EDITED_TARGET, "editedArgs", '"body"', '"question"', "demo:"])
        expect(copied).not.toContain(content);
    });
  });
}
