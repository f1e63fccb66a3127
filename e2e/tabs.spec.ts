// Two real tabs of one browser (issue 5): exactly one sends, the other takes over when it
// closes, and both show the same verdict.
import type { Page } from "@playwright/test";
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  newThreadId,
  openThread,
  outboxRows,
  readStoredEntries,
  watchResumes,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

function connection(page: Page) {
  return page.getByTestId("connection");
}

test("two open tabs: exactly one sends, and both show the same verdict", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const second = await context.newPage();
  await openThread(second, threadId);
  await expect(approvalCard(second)).toHaveAttribute("data-state", "unanswered");
  await expect(connection(page)).toHaveAttribute("data-leader", "true");
  await expect(connection(second)).toHaveAttribute("data-leader", "false");
  const fromLeader = watchResumes(page);
  const fromFollower = watchResumes(second);

  // The person answers in the tab that does not send: the sending tab delivers it.
  await approve(second);
  for (const tab of [page, second]) {
    await expect(cardStatus(tab)).toHaveText("Applied.", { timeout: 20_000 });
    await expect(approvalCard(tab).getByTestId("approval-decision")).toHaveText("You approved.");
    await expect(outboxRows(tab)).toHaveCount(1);
    await expect(outboxRows(tab)).toHaveAttribute("data-state", "applied");
  }
  expect(fromLeader).toHaveLength(1);
  expect(fromFollower).toEqual([]);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("closing the sending tab mid-delivery: the other takes over within a second", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const second = await context.newPage();
  await openThread(second, threadId);
  await expect(connection(second)).toHaveAttribute("data-leader", "false");
  // The run pauses right after the claim ack: the sending tab closes while it waits.
  await mock.addFaults({ point: "after-claim", action: "delay", delayMs: 2500, threadId });
  const fromLeader = watchResumes(page);

  await approve(page);
  await expect(outboxRows(second)).toHaveAttribute("data-state", "streaming");
  expect(fromLeader).toHaveLength(1);
  const fromFollower: string[] = [];
  second.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path === "/agent" || path.startsWith("/agent/runs/"))
      fromFollower.push(`${request.method()} ${path}`);
  });
  await page.close();

  await expect(connection(second)).toHaveAttribute("data-leader", "true", { timeout: 1000 });
  await expect(cardStatus(second)).toHaveText(/^Applied/, { timeout: 20_000 });
  await expect(approvalCard(second).getByTestId("approval-decision")).toHaveText("You approved.");
  await expect(outboxRows(second)).toHaveAttribute("data-state", "applied");
  expect(fromFollower.length).toBeGreaterThanOrEqual(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("a tab reloaded while the other finishes the delivery shows the final verdict", async ({
  page,
  context,
  mock,
}) => {
  // The race is narrow: the reloaded tab reads the entry from IndexedDB just before the
  // sending tab settles it. A few short pauses after the claim make it likely to show.
  const second = await context.newPage();
  for (const delayMs of [100, 200, 300]) {
    const threadId = newThreadId();
    await openThread(page, threadId);
    await askToDeploy(page);
    await openThread(second, threadId);
    await mock.addFaults({ point: "after-claim", action: "delay", delayMs, threadId });
    await approve(page);
    await page.reload();

    // The tab that took over delivers the answer (a resend with the same key when the
    // reload cut the first stream: the server replays its record, and the card says so) ...
    await expect(cardStatus(second)).toHaveText(/^Applied( \(the server replayed its record\))?\.$/, {
      timeout: 20_000,
    });
    expect(await mock.ledger(threadId)).toHaveLength(1);
    // ... IndexedDB, shared by both tabs, says so ...
    const stored = (await readStoredEntries(page)).filter((entry) => entry.threadId === threadId);
    expect(stored.map((entry) => entry.state)).toEqual(["applied"]);
    // ... and the reloaded tab shows that verdict too, not the state it read on start.
    await expect(approvalCard(page), `pause of ${delayMs} ms after the claim`).toHaveAttribute(
      "data-state",
      "applied",
      { timeout: 5000 },
    );
  }
});
