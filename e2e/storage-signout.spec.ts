// Sign-out during delivery, in real Chromium (issue 14): two pages of one context on one
// real IndexedDB, real Web Locks and BroadcastChannel. The page signs out while the server
// holds its answer; the truth is read where it lives: the database, and what the server
// received per idempotency key.
import type { Page } from "@playwright/test";
import {
  approvalCard,
  askToDeploy,
  isResume,
  openThread,
  outboxRows,
  readStoredEntries,
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

    await leaving.getByTestId("sign-out").click();
    await leaving.getByTestId("signed-out").waitFor();
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
