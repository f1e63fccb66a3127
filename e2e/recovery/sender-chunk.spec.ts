// The code that sends is a chunk of the demo's build, loaded by the sending tab
// when it takes the lock (packages/core/src/delivery/load-sender.ts). Here every
// request for it fails, as it would offline or after a deploy removed it: the
// answer is kept on disk, nothing reaches the server, and the card and the banner
// say why. Once the chunk can be fetched and the browser is back online, it loads
// in the same page (no reload) and the answer is delivered once: counted at the
// server and in the ledger.
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  openThread,
  readStoredEntries,
} from "../support/demo-page";
import { expect, test } from "../support/fixtures";

const SENDER_CHUNK = /\/assets\/sender-[^/]*\.js(\?.*)?$/;

test("the sending code cannot be fetched: the answer is kept and unsent, and the page says so; once it can, it is applied once without a reload", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  let refused = 0;
  await page.route(SENDER_CHUNK, (route) => {
    refused += 1;
    return route.abort("internetdisconnected");
  });
  await openThread(page, threadId);
  await askToDeploy(page);
  await approve(page);

  await expect(cardStatus(page)).toHaveText(
    "Your approval is saved on this device. This page could not load the code that sends it and keeps trying; reloading the page also helps.",
  );
  const banner = page.getByTestId("connection");
  await expect(banner).toHaveAttribute("data-sender", "unavailable");
  await expect(banner).toContainText("could not load the code that sends answers");
  // The outbox panel tells the same, not "sending shortly".
  await expect(page.getByTestId("outbox-entry")).toContainText("could not load the code that sends it");
  expect(refused).toBeGreaterThan(0);
  // On disk, unsent; at the server, nothing.
  const [stored] = (await readStoredEntries(page)).filter((entry) => entry.threadId === threadId);
  expect(stored).toMatchObject({ state: "queued", attempts: 0 });
  expect(await mock.resumeKeys(threadId)).toEqual([]);
  expect(await mock.ledger(threadId)).toHaveLength(0);

  // The chunk can be fetched again; the browser comes back online and the tab tries at once.
  await page.unroute(SENDER_CHUNK);
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 30_000 });
  await expect(banner).toHaveAttribute("data-sender", "ok");
  const keys = await mock.resumeKeys(threadId);
  expect(keys).toHaveLength(1);
  expect(keys[0]).toBe(stored?.key);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
});

test("a tab that does not send never loads the sending code; it loads it when it takes over, and delivers", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-leader", "true");
  const second = await context.newPage();
  const loadedBySecond: string[] = [];
  second.on("request", (request) => {
    if (SENDER_CHUNK.test(request.url())) loadedBySecond.push(request.url());
  });
  await openThread(second, threadId);
  await expect(second.getByTestId("connection")).toHaveAttribute("data-leader", "false");
  await expect(approvalCard(second)).toHaveAttribute("data-state", "unanswered");
  expect(loadedBySecond).toEqual([]);

  // The sending tab closes: the other takes the lock, loads the code, and sends.
  await page.close();
  await expect(second.getByTestId("connection")).toHaveAttribute("data-leader", "true", { timeout: 10_000 });
  await expect.poll(() => loadedBySecond.length).toBeGreaterThan(0);
  await approve(second);
  await expect(cardStatus(second)).toHaveText("Applied.", { timeout: 20_000 });
  expect(await mock.resumeKeys(threadId)).toHaveLength(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
