// Network trouble during delivery: offline periods, dropped streams, failures, rate limits,
// a server crash and a duplicate delivery. Each ends applied with one execution. Sends are
// counted where they arrive, at the server (`/__resumes`, the ledger), never in the
// browser, and nothing depends on how fast the machine is: a transient card status is
// recorded as it changes, not polled for while it lasts.
import type { Page } from "@playwright/test";
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
} from "../support/demo-page";

async function expectApplied(page: Page, status: RegExp | string = /^Applied/): Promise<void> {
  await expect(cardStatus(page)).toHaveText(status, { timeout: 20_000 });
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(outboxRows(page)).toHaveCount(1);
  await expect(outboxRows(page)).toHaveAttribute("data-state", "applied");
  await expect(conversation(page)).toContainText("Deployed to prod.");
}

/** Every text the card's status shows from now on, recorded in the page as it changes. */
async function recordCardStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { cardStatuses: string[] }).cardStatuses = seen;
    const read = () => {
      const text = document.querySelector('[data-testid="approval-status"]')?.textContent ?? "";
      if (text !== "" && seen.at(-1) !== text) seen.push(text);
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    read();
  });
  return () => page.evaluate(() => (window as unknown as { cardStatuses: string[] }).cardStatuses);
}

test("offline while answering, then online: delivered under one key without any action", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);

  await context.setOffline(true);
  await expect(page.getByRole("status")).toContainText("Offline: answers are kept");
  await approve(page);
  await expect(outboxRows(page)).toHaveAttribute("data-state", /queued|sending|retry_wait/);
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
  expect(await mock.ledger(threadId)).toEqual([]);

  await context.setOffline(false);
  // Applied, usually on the first send; when Chromium cuts the first stream as the
  // connection comes back, the client resends with the same key and the server
  // replays its record.
  await expectApplied(page);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  const keys = await mock.resumeKeys(threadId);
  expect(keys.length).toBeGreaterThanOrEqual(1);
  expect(new Set(keys).size).toBe(1);
});

test("offline across a reload: the kept answer is sent once back online", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await context.setOffline(true);
  await approve(page);
  await expect(outboxRows(page)).toHaveAttribute("data-state", /queued|sending|retry_wait/);

  // The person reloads while offline: the browser shows its own error page. It
  // must be showing before the network comes back: the document the failed
  // reload tears down may still fire `online` and send, and only the server
  // sees that request, so the sends are counted there.
  await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await expect.poll(() => page.url()).toMatch(/^chrome-error:/);
  await context.setOffline(false);
  await page.goto(`/#thread=${threadId}`);

  // Applied, usually on the first send; when Chromium cuts the first stream as the
  // connection comes back, the client resends with the same key and the server
  // replays its record ("Applied (the server replayed its record).").
  await expectApplied(page);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  const keys = await mock.resumeKeys(threadId);
  expect(keys.length).toBeGreaterThanOrEqual(1);
  expect(new Set(keys).size).toBe(1);
});

test("a stream dropped mid-run is re-attached with no duplicated or missing message", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({ point: "mid-stream", action: "drop", afterEvents: 3, threadId });
  const reattached: string[] = [];
  page.on("request", (request) => {
    if (/^\/agent\/runs\/[^/]+\/events$/.test(new URL(request.url()).pathname))
      reattached.push(request.url());
  });

  await approve(page);
  await expectApplied(page, "Applied.");
  expect(reattached.length).toBeGreaterThanOrEqual(1);
  const messages = page.getByTestId("message");
  const onScreen = () =>
    messages.evaluateAll((items) =>
      items.map((item) => `${item.getAttribute("data-role")}: ${item.textContent ?? ""}`),
    );
  const live = await onScreen();
  expect(live.filter((text) => text.includes("Deployed to prod."))).toHaveLength(1);

  // The server's own record of the thread, as a fresh page hydrates it, matches the screen.
  await page.reload();
  await expect(conversation(page)).toContainText("Deployed to prod.");
  await expect.poll(onScreen).toEqual(live);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("a failure after the tool is retried and applied with one execution", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({ point: "after-tool", action: "fail", times: 2, threadId });

  await approve(page);
  await expectApplied(page);
  await expect(page.getByTestId("outbox-attempts")).toHaveText("3");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  const keys = await mock.resumeKeys(threadId);
  expect(keys).toHaveLength(3);
  expect(new Set(keys).size).toBe(1);
});

test("429 and 503 with Retry-After: no request earlier than allowed", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults(
    { point: "before-response", action: "status", status: 429, retryAfterMs: 2000, threadId },
    { point: "before-response", action: "status", status: 503, retryAfterMs: 1000, threadId },
  );
  const statuses = await recordCardStatuses(page);

  await approve(page);
  await expectApplied(page, "Applied.");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  // The card said why it waited, whenever the test looked.
  expect(
    (await statuses()).some((text) =>
      /^Server (busy \(429\)|unavailable \(503\)) — retrying (in \d s|now)\.$/.test(text),
    ),
  ).toBe(true);

  // At the server: three arrivals under one key, each after the wait the one before
  // it was refused with (a refusal leaves as its request arrives, so a load that
  // slows anything only lengthens these gaps).
  const resumes = await mock.resumes(threadId);
  expect(resumes).toHaveLength(3);
  expect(new Set(resumes.map((resume) => resume.key)).size).toBe(1);
  const allowedAfterMs = [2000, 1000];
  for (let i = 0; i < 2; i += 1) {
    const refused = resumes[i];
    const next = resumes[i + 1];
    if (refused === undefined || next === undefined) throw new Error("missing resume");
    expect(next.at - refused.at).toBeGreaterThanOrEqual(allowedAfterMs[i] ?? 0);
  }
});

test("a server crash and restart on the file store: recovered with one execution", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The tool has run and its result is stored when the server dies.
  await mock.addFaults({ point: "after-tool", action: "crash", threadId });

  await approve(page);
  await expectApplied(page);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("a duplicate delivery after success is shown as applied", async ({ page, mock, threadId }) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The first delivery reaches the server and succeeds, but its answer never reaches the
  // page: the client sends the same submission again.
  let first = true;
  await page.route("**/agent", async (route) => {
    if (!(first && isResume(route.request()))) return route.fallback();
    first = false;
    await route.fetch();
    await route.abort("connectionreset");
  });

  await approve(page);
  await expectApplied(page, "Applied (the server replayed its record).");
  expect(await mock.ledger(threadId)).toHaveLength(1);
  const keys = await mock.resumeKeys(threadId);
  expect(keys.length).toBeGreaterThanOrEqual(2);
  expect(new Set(keys).size).toBe(1);
});
