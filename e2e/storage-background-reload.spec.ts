// A reload right after "Run in background", in real Chromium (issue 14): two pages on one
// real IndexedDB, real Web Locks and BroadcastChannel. A run is written ahead before its
// start goes out, so a reload either cuts it before anything left the page (no trace
// anywhere) or leaves a record that the sending tab starts again with the same key (one
// run at the server). Storage is held by another page to put the reload in either window.
import type { Page, Request } from "@playwright/test";
import {
  approve,
  BACKGROUND_PUT,
  holdStorage,
  openThread,
  readBackgroundRuns,
  reportBackgroundPuts,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/** The thread of every background start request the pages make. */
function watchStarts(...pages: Page[]): string[] {
  const threads: string[] = [];
  for (const page of pages)
    page.on("request", (request: Request) => {
      if (request.method() !== "POST") return;
      const body = request.postDataJSON() as {
        threadId?: string;
        forwardedProps?: { background?: boolean };
      } | null;
      if (body?.forwardedProps?.background === true && body.threadId) threads.push(body.threadId);
    });
  return threads;
}

async function sendInBackground(page: Page): Promise<void> {
  await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
  await page.getByTestId("send-background").click();
}

test("a reload before the run was written ahead: its write dies with the page, nothing reached the server, and the next run still finishes once", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await reportBackgroundPuts(page);
  await openThread(page, threadId);
  const other = await context.newPage();
  await openThread(other, `${threadId}-b`);
  const starts = watchStarts(page, other);

  const blocker = await context.newPage();
  await blocker.goto("/");
  const release = await holdStorage(blocker);
  const asked = page.waitForEvent("console", (message) => message.text() === BACKGROUND_PUT);
  await sendInBackground(page);
  await asked; // the write ahead waits behind the held storage
  await page.reload();
  await release();
  await blocker.close();
  expect(await readBackgroundRuns(other)).toEqual([]);

  // Both tabs still work: a run started now is listed by both and finishes once approved.
  await sendInBackground(other);
  await approve(other);
  for (const tab of [page, other])
    await expect(tab.locator('[data-testid="background-run"][data-verdict="completed"]')).toHaveCount(1, {
      timeout: 30_000,
    });
  await expect(page.getByTestId("background-run")).toHaveCount(1);
  expect(starts).toEqual([`${threadId}-b`]);
  expect(await mock.ledger(`${threadId}-b`)).toHaveLength(1);
  expect(await mock.ledger(threadId)).toEqual([]);
});

test("a reload while the start is on its way: the run written ahead is started again with its key by the tab that sends, and its tool runs once", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-leader", "true");
  const other = await context.newPage();
  await openThread(other, `${threadId}-b`);
  const keys: string[] = [];
  for (const tab of [page, other])
    tab.on("request", (request) => {
      const body =
        request.method() === "POST"
          ? (request.postDataJSON() as { forwardedProps?: { background?: boolean } } | null)
          : null;
      if (body?.forwardedProps?.background === true) keys.push(request.headers()["idempotency-key"] ?? "");
    });
  // The first start reaches the server, which starts the run; its answer never reaches the page.
  const reachedServer = new Promise<void>((reached) => {
    void page.route("**/agent", async (route) => {
      const body = route.request().postDataJSON() as { forwardedProps?: { background?: boolean } } | null;
      if (body?.forwardedProps?.background !== true || keys.length > 1) return route.fallback();
      await route.fetch();
      reached();
    });
  });
  await sendInBackground(page);
  await reachedServer;
  await page.reload();
  await approve(page);

  for (const tab of [page, other])
    await expect(tab.locator('[data-testid="background-run"][data-verdict="completed"]')).toHaveCount(1, {
      timeout: 30_000,
    });
  expect(keys.length).toBeGreaterThan(1);
  expect(new Set(keys).size).toBe(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
