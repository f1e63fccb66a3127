// While a run waits for answers the composer says so and sends nothing; no protocol code
// or id reaches a person, it waits folded under Details (issue 34, items 6 and 10).
import type { Locator, Page } from "@playwright/test";
import { expectNoAxeViolations } from "./a11y/layout-checks";
import { approve, askToDeploy, cardStatus, conversation, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

// What a person must never read: a protocol code, a tool call id, a run's uuid.
const RAW = /\b[A-Z]{3,}(?:_[A-Z]+)+\b|\bcall_\w+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/;

function chat(page: Page): Locator {
  return page.getByRole("region", { name: /^Conversation/ });
}

/** The chat panel's rendered text (folded details are not rendered) reads without raw codes. */
async function expectNoRawText(page: Page): Promise<void> {
  // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads.
  expect(await chat(page).innerText()).not.toMatch(RAW);
}

test("while the question is open the composer says so and sends nothing; answered, it sends again", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const send = page.getByRole("button", { name: "Send" });
  await expect(page.getByTestId("composer-waiting")).toHaveText(
    "The agent is waiting for your answer to the question above. Answer it or cancel it, then send your message.",
  );
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(/waiting for your answer/);
  await expect(page.getByTestId("send-background")).toBeDisabled();
  await expectNoAxeViolations(page);

  // Enter in the composer sends nothing either: no message, no alert, the text stays.
  const composer = page.getByLabel("Your message", { exact: true });
  await composer.fill("hello");
  await composer.press("Enter");
  await expect(composer).toHaveValue("hello");
  await expect(conversation(page).locator('[data-role="user"]')).toHaveCount(1);
  await expect(page.getByRole("alert")).toHaveCount(0);
  expect((await mock.occurrences(threadId)).map((occurrence) => occurrence.state)).toEqual(["PENDING"]);
  expect(await mock.ledger(threadId)).toEqual([]);
  await expectNoRawText(page);

  // Answered, the composer is free again.
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  await expect(page.getByTestId("composer-waiting")).toHaveCount(0);
  await expect(send).toBeEnabled();
  expect(await mock.ledger(threadId)).toHaveLength(1);
  await expectNoAxeViolations(page);
});

test("answering after the server was reset says so in words; the code is only under Details", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  const card = await askToDeploy(page);
  await mock.reset();
  await approve(page);
  await expect(card).toHaveAttribute("data-state", "needs_user");
  await expect(cardStatus(page)).toHaveText(
    "This question is no longer open on the server. Your answer is kept; refresh to see what is.",
  );
  await expectNoRawText(page);
  await expectNoAxeViolations(page);

  // Whoever debugs finds the server's code one click away.
  const details = card.getByTestId("approval-error-detail");
  await details.getByText("Details").click();
  await expect(details).toContainText("APPROVAL_RESUME_NOT_FOUND");
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toEqual([]);
  expect(await mock.occurrences(threadId)).toEqual([]);
});

test("a crash and restart while the answer is delivered shows no raw id, code or failure in the conversation", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // Every rendered text the conversation shows from now on, checked as it changes: the
  // answer is sent again, so no sentence may say it (or its run) failed.
  await page.evaluate((source) => {
    const raw = new RegExp(source);
    const region = document.querySelector('section[aria-labelledby="chat-title"]') as HTMLElement;
    const seen: string[] = [];
    (globalThis as { rawSeen?: string[] }).rawSeen = seen;
    new MutationObserver(() => {
      // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads.
      const match = raw.exec(region.innerText) ?? /[^.\n]*\bfail[^.\n]*/i.exec(region.innerText);
      if (match) seen.push(match[0]);
    }).observe(region, { subtree: true, childList: true, characterData: true, attributes: true });
  }, RAW.source);
  await mock.addFaults({ point: "after-tool", action: "crash", threadId });
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 45_000 });
  expect(await page.evaluate(() => (globalThis as { rawSeen?: string[] }).rawSeen)).toEqual([]);
  await expectNoAxeViolations(page);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
