// Storage and tabs in real Chromium (issue 14): two pages on one real IndexedDB, real
// Web Locks and BroadcastChannel. Delivery is asserted at the server: the ledger and the
// resume requests each page made.
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  openThread,
  outboxRows,
  watchResumes,
} from "./support/demo-page";
import { expect, test } from "./support/fixtures";

const DEMO_DB = "agui-outbox-demo";

test("a follower tab closed right after answering: the sending tab delivers the answer, once", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  const follower = await context.newPage();
  await openThread(follower, threadId);
  await expect(follower.getByTestId("connection")).toHaveAttribute("data-leader", "false");
  const fromLeader = watchResumes(page);

  await approve(follower); // resolves once the answer is on disk and the leader was told
  await follower.close();

  await expect(cardStatus(page)).toHaveText(/^Applied/, { timeout: 20_000 });
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
  expect(fromLeader).toHaveLength(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});

test("a second page opens the database at a higher version while an answer waits for its retry: the first page stays responsive and the answer is delivered once", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  await mock.addFaults({
    point: "before-response",
    action: "status",
    status: 503,
    retryAfterMs: 2000,
    threadId,
  });
  const resumes = watchResumes(page);
  await approve(page);
  await expect(outboxRows(page)).toHaveAttribute("data-state", "retry_wait", { timeout: 10_000 });

  // Newer code in another page upgrades the database.
  const upgrader = await context.newPage();
  await upgrader.goto("/");
  const upgradedTo = await upgrader.evaluate(async (name) => {
    const known = (await indexedDB.databases()).find((database) => database.name === name);
    const version = (known?.version ?? 1) + 1;
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, version);
      request.onupgradeneeded = () => request.result.createObjectStore(`added-in-v${version}`);
      request.onblocked = () => reject(new Error("the upgrade was blocked by the other page"));
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    return version;
  }, DEMO_DB);
  expect(upgradedTo).toBeGreaterThan(2);
  await upgrader.close();

  // The first page answers at once: no microtask spin froze it.
  const answered = await Promise.race([
    page.evaluate(() => "responsive"),
    new Promise<string>((resolve) => setTimeout(() => resolve("frozen"), 5_000)),
  ]);
  expect(answered).toBe("responsive");

  await expect(cardStatus(page)).toHaveText(/^Applied/, { timeout: 20_000 });
  await expect(outboxRows(page)).toHaveAttribute("data-state", "applied");
  // One answer, one key: the refused attempt and the delivery, nothing more.
  const keys = new Set(resumes.map((request) => request.headers()["idempotency-key"]));
  expect(keys.size).toBe(1);
  expect(resumes).toHaveLength(2);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  // The page reopened the upgraded database and still writes to it.
  const stored = await page.evaluate(
    async ({ name, thread }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const all = await new Promise<Array<{ threadId: string; state: string }>>((resolve, reject) => {
        const request = db.transaction("entries").objectStore("entries").getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return all.filter((entry) => entry.threadId === thread).map((entry) => entry.state);
    },
    { name: DEMO_DB, thread: threadId },
  );
  expect(stored).toEqual(["applied"]);
});

test("two pages each answer one question of a two-question run at the same moment: one request carries both, each tool runs once", async ({
  page,
  context,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await page.getByLabel("Your message", { exact: true }).fill("deploy to prod and staging");
  await page.getByRole("button", { name: "Send" }).click();
  const unanswered = '[data-testid="approval-card"][data-state="unanswered"]';
  await expect(page.locator(unanswered)).toHaveCount(2);
  const second = await context.newPage();
  await openThread(second, threadId);
  await expect(second.locator(unanswered)).toHaveCount(2);

  // Each page approves a different question, in the same instant.
  const buttons = await Promise.all(
    [page, second].map((tab, index) => approvalCard(tab).nth(index).getByTestId("approve").elementHandle()),
  );
  await Promise.all(buttons.map((button) => button?.evaluate((element) => (element as HTMLElement).click())));

  for (const tab of [page, second])
    await expect(tab.locator('[data-testid="approval-card"][data-state="applied"]')).toHaveCount(2, {
      timeout: 20_000,
    });
  // At the server: one resume key for the two answers, and each tool call ran once.
  expect(new Set(await mock.resumeKeys(threadId)).size).toBe(1);
  const ran = (await mock.ledger(threadId)).map((execution) => execution.toolCallId);
  expect(ran).toHaveLength(2);
  expect(new Set(ran).size).toBe(2);
});
