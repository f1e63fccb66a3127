// The connection banner while answers cannot reach a restarting server: it never
// says "Connected" until the server answers again, and the answer is delivered
// once, with one key (counted at the server, and in the ledger).
import type { Page } from "@playwright/test";
import { approvalCard, approve, askToDeploy, cardStatus, openThread } from "./support/demo-page";
import { expect, test } from "./support/fixtures";

/** Every text the banner shows from now on, in order, caught by a MutationObserver. */
async function recordBanner(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const banner = document.querySelector('[data-testid="connection"]');
    if (!banner) throw new Error("no connection banner");
    const seen: string[] = [banner.textContent ?? ""];
    (globalThis as { bannerTexts?: string[] }).bannerTexts = seen;
    new MutationObserver(() => {
      const text = banner.textContent ?? "";
      if (seen.at(-1) !== text) seen.push(text);
    }).observe(banner, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...((globalThis as { bannerTexts?: string[] }).bannerTexts ?? [])]);
}

/** The banner's texts reduced to what they claim: connected or not, repeats collapsed. */
function claims(texts: readonly string[]): string[] {
  const kinds = texts.map((text) =>
    text.startsWith("Connected") ? "connected" : (text.split(":")[0] ?? text),
  );
  return kinds.filter((kind, index) => kinds[index - 1] !== kind);
}

test("a server answering 503 while it restarts: the banner says so until the answer is delivered", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // Three refusals, a second apart, then the server is back.
  await mock.addFaults({
    point: "before-response",
    action: "status",
    status: 503,
    retryAfterMs: 1000,
    times: 3,
    threadId,
  });
  const banner = await recordBanner(page);

  await approve(page);
  // The refusals last about three seconds: what the banner said meanwhile is read from
  // its recording below, never polled for while it lasts.
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 30_000 });
  await expect(page.getByTestId("connection")).toContainText("Connected");

  // Between the first refusal and the delivery the banner never went back to "Connected".
  const texts = await banner();
  expect(claims(texts)).toEqual(["connected", "Server unavailable", "connected"]);
  expect(texts.some((text) => text.includes("Server unavailable: answers are kept and retried"))).toBe(true);
  // At the server: four sends of one key (three refused, one run), one execution.
  const keys = await mock.resumeKeys(threadId);
  expect(keys).toHaveLength(4);
  expect(new Set(keys).size).toBe(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
  await expect(approvalCard(page).getByTestId("approval-decision")).toHaveText("You approved.");
});

test("a server killed and restarted: the banner says it cannot be reached, then the answer is delivered once", async ({
  page,
  mock,
  threadId,
}) => {
  await openThread(page, threadId);
  await askToDeploy(page);
  // The process exits on the resume, before answering; the supervisor starts a new one.
  await mock.addFaults({ point: "before-response", action: "crash", threadId });
  const banner = await recordBanner(page);

  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 30_000 });

  const seen = claims(await banner());
  expect(seen.length).toBeGreaterThan(2);
  expect(seen[0]).toBe("connected");
  expect(seen.at(-1)).toBe("connected");
  // Once the resume failed, "Connected" came back only with the delivery.
  expect(seen.filter((kind) => kind === "connected")).toHaveLength(2);
  // Behind the demo's proxy a dead server is a 5xx ("unavailable"); reached directly, "unreachable".
  for (const kind of seen.slice(1, -1))
    expect(kind).toMatch(/^(Server unavailable|Server unreachable|Agent unreachable)$/);
  // The new instance received the answer once; the tool ran once.
  expect(await mock.resumeKeys(threadId)).toHaveLength(1);
  expect(await mock.ledger(threadId)).toHaveLength(1);
});
