import { expect, test } from "@playwright/test";
import { readLedger, resetMock } from "./mock-server-client";

test.beforeEach(resetMock);

test("the demo reaches the mock server and reads its recovery contract", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  await page.goto("/");
  await expect(page.getByRole("status")).toHaveText(/recovery contract v1/);
  expect(violations).toEqual([]);
  expect(await readLedger()).toEqual([]);
});
