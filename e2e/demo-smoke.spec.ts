import { expect, type Page, test } from "@playwright/test";
import { mockUrl, readLedger, resetMock } from "./mock-server-client";

test.beforeEach(resetMock);

/** Collects CSP violations, both as events in the page and as console messages. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (execute|evaluate|load|apply)/i.test(text))
      fromConsole.push(text);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as { __cspViolations?: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(() => (globalThis as { __cspViolations?: string[] }).__cspViolations ?? [])),
  ];
}

async function waitForLedger(count: number): Promise<void> {
  await expect
    .poll(async () => (await readLedger()).length, { intervals: [20], timeout: 20_000 })
    .toBe(count);
}

test("an approval survives a reload during delivery and the tool runs once", async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto("/");
  await expect(page.getByRole("status")).toContainText("recovery contract v1");

  // Ask for a deployment: the agent asks for approval.
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByRole("button", { name: "Send" }).click();
  const card = page.getByTestId("approval-card");
  await expect(card.getByRole("heading", { name: "Deploy to prod?" })).toBeVisible();
  await expect(card.getByRole("textbox", { name: /Target/ })).toHaveValue("prod");

  // Three failures after the tool, queued from the chaos panel: every retry replays the
  // stored result, so delivery takes several attempts and the tool still runs once.
  const failAfterTool = page.getByRole("button", { name: "Fail after the tool" });
  for (let i = 0; i < 3; i += 1) await failAfterTool.click();
  await expect(page.getByTestId("chaos-pending")).toHaveText(
    "Pending faults: after-tool/fail, after-tool/fail, after-tool/fail",
  );

  await card.getByRole("button", { name: "Approve" }).click();
  // The tool ran once on the server; the answer is not through yet (faults remain).
  await waitForLedger(1);
  const row = page.getByTestId("outbox-entry");
  await expect(row).toHaveCount(1);
  expect(await row.getAttribute("data-state")).not.toBe("applied");

  await page.reload();

  // After the reload the kept answer is found in IndexedDB and delivered: applied once.
  const reloaded = page.getByTestId("approval-card");
  await expect(reloaded.getByTestId("approval-status")).toHaveText("Applied.", { timeout: 30_000 });
  await expect(reloaded.getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(page.getByTestId("outbox-entry")).toHaveAttribute("data-state", "applied");
  expect(Number(await page.getByTestId("outbox-attempts").textContent())).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("ledger-total")).toHaveAttribute("data-count", "1");
  await expect(page.getByRole("list", { name: "Conversation" })).toContainText("Deployed to prod.");

  const executions = await readLedger();
  expect(executions).toHaveLength(1);
  expect(executions[0]?.name).toBe("deploy_change");
  const pending = (await (await fetch(`${mockUrl}/__chaos`)).json()) as { faults: unknown[] };
  expect(pending.faults).toEqual([]);
  expect(await violations()).toEqual([]);
});

test("an answer given offline is kept across a reload and sent once when back online", async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto("/");
  await expect(page.getByRole("status")).toContainText("recovery contract v1");
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByRole("button", { name: "Send" }).click();
  const card = page.getByTestId("approval-card");
  await expect(card.getByRole("heading", { name: "Deploy to prod?" })).toBeVisible();

  const offline = page.getByLabel("Offline", { exact: true });
  await offline.check();
  await expect(page.getByRole("status")).toContainText("Offline");
  await card.getByRole("button", { name: "Approve" }).click();
  const row = page.getByTestId("outbox-entry");
  await expect(row).toHaveAttribute("data-state", /queued|sending|retry_wait/);

  await page.reload();
  await expect(page.getByLabel("Offline", { exact: true })).toBeChecked();
  await expect(page.getByTestId("outbox-entry")).toHaveAttribute("data-state", /queued|sending|retry_wait/);
  expect(await readLedger()).toEqual([]);

  await page.getByLabel("Offline", { exact: true }).uncheck();
  await expect(page.getByTestId("approval-status")).toHaveText("Applied.", { timeout: 30_000 });
  await expect(page.getByRole("list", { name: "Conversation" })).toContainText("Deployed to prod.");
  await expect(page.getByTestId("ledger-total")).toHaveAttribute("data-count", "1");
  expect(await readLedger()).toHaveLength(1);
  expect(await violations()).toEqual([]);
});
