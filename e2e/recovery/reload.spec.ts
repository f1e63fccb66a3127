// A reload at each stage of a delivery: the answer kept in IndexedDB is delivered once.
import type { Request, Route } from "@playwright/test";
import { expect, test } from "../soak/history-test";
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  conversation,
  isResume,
  openThread,
  outboxRows,
  watchResumes,
} from "../support/demo-page";

const APPLIED = "Applied.";

async function expectAppliedOnce(
  page: import("@playwright/test").Page,
  ledger: () => Promise<unknown[]>,
): Promise<void> {
  await expect(cardStatus(page)).toHaveText(/^Applied/, { timeout: 20_000 });
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(outboxRows(page)).toHaveCount(1);
  await expect(outboxRows(page)).toHaveAttribute("data-state", "applied");
  await expect(conversation(page)).toContainText("Deployed to prod.");
  expect(await ledger()).toHaveLength(1);
}

function sameSubmission(first: Request, second: Request): void {
  expect(second.headers()["idempotency-key"]).toBe(first.headers()["idempotency-key"]);
  expect(second.postData()).toBe(first.postData());
}

test("reload after the answer is written but before it is sent", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The resume is held in the browser, never answered: it dies with the page.
  const held: Route[] = [];
  let holding = true;
  await page.route("**/agent", async (route) => {
    if (holding && isResume(route.request())) held.push(route);
    else await route.fallback();
  });

  await approve(page);
  await expect.poll(() => held.length).toBe(1);
  await expect(outboxRows(page)).toHaveAttribute("data-state", "sending");
  expect(await mock.ledger(threadId)).toEqual([]);
  const [unsent] = held;
  if (unsent === undefined) throw new Error("no resume was held");

  holding = false;
  const resumes = watchResumes(page);
  await page.reload();

  await expectAppliedOnce(page, () => mock.ledger(threadId));
  await expect(cardStatus(page)).toHaveText(APPLIED);
  expect(resumes.length).toBeGreaterThanOrEqual(1);
  for (const resume of resumes) sameSubmission(unsent.request(), resume);
});

test("reload while the request is in flight", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The server holds the request before evaluating it: nothing is claimed yet.
  await mock.addFaults({ point: "before-claim", action: "delay", delayMs: 6000, threadId });
  const before = watchResumes(page);

  await approve(page);
  await expect.poll(() => before.length).toBe(1);
  await expect(outboxRows(page)).toHaveAttribute("data-state", "sending");
  const after = watchResumes(page);
  await page.reload();

  await expectAppliedOnce(page, () => mock.ledger(threadId));
  const [first] = before;
  if (first === undefined) throw new Error("no resume before the reload");
  for (const resume of after.slice(1)) sameSubmission(first, resume);
  expect(new Set(await mock.resumeKeys(threadId)).size).toBe(1);
});

test("reload after the claim acknowledgement", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // Long enough to see the claim ack and reload before the tool runs, on a loaded machine.
  await mock.addFaults({ point: "after-claim", action: "delay", delayMs: 6000, threadId });

  await approve(page);
  // "streaming": the claim ack arrived; the run is held right after it.
  await expect(outboxRows(page)).toHaveAttribute("data-state", "streaming");
  expect(await mock.ledger(threadId)).toEqual([]);
  const reattached: string[] = [];
  page.on("request", (request) => {
    if (/\/agent\/runs\/[^/]+\/events$/.test(new URL(request.url()).pathname)) reattached.push(request.url());
  });
  await page.reload();

  await expectAppliedOnce(page, () => mock.ledger(threadId));
  // The claimed run is followed, not answered again under a new key (counted at the server).
  const keys = await mock.resumeKeys(threadId);
  expect(new Set(keys).size).toBe(1);
  expect(reattached.length + keys.length).toBeGreaterThanOrEqual(2);
});

test("reload after the tool ran but before the run finished", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({ point: "after-tool", action: "delay", delayMs: 6000, threadId });

  await approve(page);
  await expect.poll(async () => (await mock.ledger(threadId)).length).toBe(1);
  await expect(outboxRows(page)).not.toHaveAttribute("data-state", "applied");
  await page.reload();

  await expectAppliedOnce(page, () => mock.ledger(threadId));
  expect(new Set(await mock.resumeKeys(threadId)).size).toBe(1);
});
