// Sign-out during delivery, in real Chromium (issue 14): two pages of one context on one
// real IndexedDB, real Web Locks and BroadcastChannel. The page signs out while the server
// holds its answer; the truth is read where it lives: the database, and what the server
// received per idempotency key. In the sending page an entry has two guards of its own
// (delivery stops before the wipe, and compare-and-set refuses a wiped entry); a background
// record is written without compare-and-set, so there only the drain before the wipe keeps
// it gone: the last test holds storage so that write lands in the sign-out's window.
import type { Page } from "@playwright/test";
import {
  approvalCard,
  askToDeploy,
  BACKGROUND_PUT,
  holdStorage,
  isResume,
  openThread,
  outboxRows,
  readBackgroundRuns,
  readStoredEntries,
  reportBackgroundPuts,
  signOutDiscarding,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

const HOLD_MS = 3000;

async function responsive(page: Page): Promise<boolean> {
  return Promise.race([
    page.evaluate(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
  ]);
}

async function entriesOf(page: Page, namespace: string, threadId: string) {
  return (await readStoredEntries(page)).filter(
    (entry) => entry.namespace === namespace && entry.threadId === threadId,
  );
}

for (const where of ["the sending page", "the other page"] as const) {
  test(`signing out in ${where} while the server holds the answer: the entry is gone from storage, nothing comes back in either page, and signing in again resends nothing`, async ({
    page,
    context,
    mock,
    threadId,
  }) => {
    // `page` opened first: it holds the lock and sends; `other` mirrors it.
    await openThread(page, threadId);
    await askToDeploy(page);
    const other = await context.newPage();
    await openThread(other, threadId);
    await expect(other.getByTestId("connection")).toHaveAttribute("data-leader", "false");
    await other.locator('[data-testid="approval-card"][data-state="unanswered"]').waitFor();
    const leaving = where === "the sending page" ? page : other;
    const staying = leaving === page ? other : page;

    // The server claims the answer, then sits on it: delivery is under way at sign-out.
    await mock.addFaults({ point: "after-claim", action: "delay", delayMs: HOLD_MS, threadId });
    const resumeSent = page.waitForRequest(isResume);
    await approvalCard(page).getByTestId("approve").click();
    const key = (await resumeSent).headers()["idempotency-key"] ?? "";
    expect(key).not.toBe("");
    expect(await entriesOf(page, "demo:alice", threadId)).toHaveLength(1);
    await expect(outboxRows(other)).toHaveCount(1);

    await signOutDiscarding(leaving);
    expect(await entriesOf(staying, "demo:alice", threadId)).toEqual([]);

    // The server runs the held answer and replies; no page writes it back.
    await expect.poll(() => mock.ledger(threadId).then((ran) => ran.length), { timeout: 20_000 }).toBe(1);
    expect(await responsive(page)).toBe(true);
    expect(await responsive(other)).toBe(true);
    // The page still signed in sends now (it took over, or it always did) and shows nothing.
    await expect(staying.getByTestId("connection")).toHaveAttribute("data-leader", "true");
    await expect(outboxRows(staying)).toHaveCount(0);
    expect(await entriesOf(staying, "demo:alice", threadId)).toEqual([]);

    // Signed in again as the same user, in the same page: the wiped answer is not resent.
    await leaving.getByLabel("User").selectOption("alice");
    await leaving.getByTestId("sign-in").click();
    await openThread(leaving, threadId);
    // A reload of the sending page reads storage afresh and sends whatever it finds.
    await staying.reload();
    await openThread(staying, threadId);
    await expect
      .poll(async () => {
        const flags = await Promise.all(
          [page, other].map((tab) => tab.getByTestId("connection").getAttribute("data-leader")),
        );
        return flags.includes("true");
      })
      .toBe(true);
    expect(await responsive(leaving)).toBe(true);
    await expect(outboxRows(page)).toHaveCount(0);
    await expect(outboxRows(other)).toHaveCount(0);
    expect(await entriesOf(page, "demo:alice", threadId)).toEqual([]);
    expect(await mock.resumeKeys(threadId)).toEqual([key]);
    expect(await mock.ledger(threadId)).toHaveLength(1);
  });
}

test("signing out in the sending page while its background run's start is answered: the sign-out waits for that write, so the run does not come back after the wipe", async ({
  page,
  context,
  threadId,
}) => {
  await reportBackgroundPuts(page);
  await openThread(page, threadId);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-leader", "true");
  // The start reaches the server; its answer is held in the page until released.
  let answerStart: () => Promise<void> = async () => {};
  let starts = 0;
  const startHeld = new Promise<void>((held) => {
    void page.route("**/agent", async (route) => {
      const body = route.request().postDataJSON() as { forwardedProps?: { background?: boolean } } | null;
      if (body?.forwardedProps?.background !== true) return route.fallback();
      starts += 1;
      if (starts > 1) return route.fallback();
      const response = await route.fetch();
      answerStart = () => route.fulfill({ response });
      held();
    });
  });
  await page.getByTestId("send-background").click();
  await startHeld;
  await expect(page.getByTestId("background-run")).toHaveCount(1);

  const blocker = await context.newPage();
  await blocker.goto("/");
  const release = await holdStorage(blocker);
  await page.getByTestId("sign-out").click();
  // The server's answer to the start arrives while the sign-out waits; its write is asked for.
  const written = page.waitForEvent("console", (message) => message.text() === BACKGROUND_PUT);
  await answerStart();
  await written;
  await release();
  await page.getByTestId("signed-out").waitFor();
  expect((await readBackgroundRuns(page)).filter((run) => run.namespace === "demo:alice")).toEqual([]);
  // The holding page is a demo tab too (it took the lock): gone, so this page sends again.
  await blocker.close();

  await page.getByLabel("User").selectOption("alice");
  await page.getByTestId("sign-in").click();
  await openThread(page, threadId);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-leader", "true");
  await expect(page.getByTestId("background-run")).toHaveCount(0);
  expect((await readBackgroundRuns(page)).filter((run) => run.namespace === "demo:alice")).toEqual([]);
  // The run the server started was not started again.
  expect(starts).toBe(1);
});
