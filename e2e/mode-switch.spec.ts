// The server changes under the page (the demo's mode switch): the banner, the server kind
// and what background runs can do follow it both ways, with no reload (issue 34, item 7).
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { CONTRACT, DEGRADED, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

test("a live switch to a server without the contract and back: the page follows both ways", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  const banner = page.getByRole("status").filter({ hasText: /recovery contract/ });
  const background = page.getByTestId("send-background");
  const composer = page.getByLabel("Your message", { exact: true });
  const modeSelect = page.getByLabel("Server mode");
  await expect(background).toBeEnabled();

  await modeSelect.selectOption("af-legacy");
  await expect.poll(() => mock.mode()).toBe("af-legacy");
  await composer.fill("hello");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(banner).toHaveText(DEGRADED, { timeout: 5_000 });
  await expect(background).toBeDisabled();
  await expect(page.getByTestId("background-unsupported")).toBeVisible();
  // One message sent, shown once.
  await expect(page.getByTestId("message").filter({ hasText: /^You\s*hello$/ })).toHaveCount(1);
  await expectNoAxeViolations(page);

  await modeSelect.selectOption("fixed");
  await expect.poll(() => mock.mode()).toBe("fixed");
  await composer.fill("hello again");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(banner).toHaveText(CONTRACT, { timeout: 5_000 });
  await expect(background).toBeEnabled();
  await expect(page.getByTestId("background-unsupported")).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toEqual([]);
});
