// Page helpers over the demo's documented locators (demo/README.md).
import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page, type Request } from "@playwright/test";

/** A thread of its own per test, so ledgers and faults never mix. */
export function newThreadId(prefix = "e2e"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export const CONTRACT = /recovery contract v1/;
export const DEGRADED = /no recovery contract \(degraded mode\)/;

// `locator.waitFor` watches the page continuously, where `expect` polls at widening
// intervals (up to a second): waiting for a state through it keeps every step short.

/** Opens the demo on a thread and waits until it has read the server's capabilities. */
export async function openThread(page: Page, threadId: string, server: RegExp = CONTRACT): Promise<void> {
  await page.goto(`/#thread=${threadId}`);
  await page.getByRole("status").filter({ hasText: server }).waitFor();
}

export function approvalCard(page: Page): Locator {
  return page.getByTestId("approval-card");
}

export function cardStatus(page: Page): Locator {
  return approvalCard(page).getByTestId("approval-status");
}

export function outboxRows(page: Page): Locator {
  return page.getByTestId("outbox-entry");
}

export function conversation(page: Page): Locator {
  return page.getByRole("list", { name: "Conversation" });
}

/** Asks the scripted agent to deploy and waits for its question. */
export async function askToDeploy(page: Page, text = "please deploy to prod"): Promise<Locator> {
  await page.getByLabel("Your message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  const card = approvalCard(page);
  await card.getByRole("heading", { name: "Deploy to prod?" }).waitFor();
  await expect(card).toHaveAttribute("data-state", "unanswered");
  return card;
}

/** Waits until the card's answer is on disk: `answer()` resolved, the card left "unanswered". */
export async function answerSaved(page: Page): Promise<void> {
  await page.locator('[data-testid="approval-card"]:not([data-state="unanswered"])').waitFor();
}

/** Clicks Approve and waits until the answer is on disk. */
export async function approve(page: Page): Promise<void> {
  await approvalCard(page).getByTestId("approve").click();
  await answerSaved(page);
}

export async function reject(page: Page): Promise<void> {
  await approvalCard(page).getByTestId("reject").click();
  await answerSaved(page);
}

/** A `POST /agent` that carries an answer (resumes, and only resumes, carry `Idempotency-Key`). */
export function isResume(request: Request): boolean {
  return (
    request.method() === "POST" &&
    new URL(request.url()).pathname === "/agent" &&
    request.headers()["idempotency-key"] !== undefined
  );
}

/** Records every resume request a page makes, in order. */
export function watchResumes(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (isResume(request)) seen.push(request);
  });
  return seen;
}

/** The outbox entry fields a test reads, straight from the demo's IndexedDB. */
export interface StoredEntry {
  readonly key: string;
  readonly namespace: string;
  readonly threadId: string;
  readonly interruptId: string;
  /** The tool call the interrupt guards, where the server names it apart from the interrupt. */
  readonly toolCallId?: string;
  readonly state: string;
  readonly decision: unknown;
  readonly attempts: number;
  readonly verdictDetail: string | null;
  readonly lastError: { kind?: string; code?: string } | null;
}

/**
 * Every outbox entry in the demo's database. Reads only a database that exists, so it
 * never creates an empty one under the app.
 */
export async function readStoredEntries(page: Page, dbName = "agui-outbox-demo"): Promise<StoredEntry[]> {
  return page.evaluate(async (name) => {
    const known = await indexedDB.databases();
    if (!known.some((db) => db.name === name)) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains("entries")) return [];
      const all = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction("entries", "readonly").objectStore("entries").getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      });
      return all.map((value) => {
        const entry = value as Record<string, unknown>;
        return {
          key: String(entry.key),
          namespace: String(entry.namespace),
          threadId: String(entry.threadId),
          interruptId: String(entry.interruptId),
          ...(typeof entry.toolCallId === "string" ? { toolCallId: entry.toolCallId } : {}),
          state: String(entry.state),
          decision: entry.decision,
          attempts: Number(entry.attempts),
          verdictDetail: (entry.verdictDetail as string | null | undefined) ?? null,
          lastError: (entry.lastError as { kind?: string; code?: string } | null | undefined) ?? null,
        };
      });
    } finally {
      db.close();
    }
  }, dbName);
}

/** The background run records in the demo's IndexedDB (every namespace). */
export async function readBackgroundRuns(
  page: Page,
  dbName = "agui-outbox-demo",
): Promise<{ namespace: string; threadId: string; verdict: string }[]> {
  return page.evaluate(async (name) => {
    // Opening a database that does not exist would create it empty.
    if (!(await indexedDB.databases()).some((database) => database.name === name)) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains("background")) return [];
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction("background", "readonly").objectStore("background").getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      });
      return rows.map((row) => {
        const value = (row as { value: Record<string, unknown> }).value;
        return {
          namespace: String((row as { namespace: unknown }).namespace),
          threadId: String(value.threadId),
          verdict: String(value.verdict),
        };
      });
    } finally {
      db.close();
    }
  }, dbName);
}

/**
 * Holds a read-write transaction over every outbox store from a page of its own, so the
 * sign-out's wipe and any write queue behind it, in the order they were asked for.
 */
export async function holdStorage(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open("agui-outbox-demo");
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const tx = request.result.transaction(["entries", "meta", "background"], "readwrite");
          const store = tx.objectStore("background");
          const state = globalThis as { releaseStorage?: boolean };
          // A transaction stays open while it has requests: keep asking until released.
          const keepAlive = () => {
            if (!state.releaseStorage) store.count().onsuccess = keepAlive;
          };
          keepAlive();
          resolve();
        };
      }),
  );
  return () =>
    page.evaluate(() => {
      (globalThis as { releaseStorage?: boolean }).releaseStorage = true;
    });
}

/** What a page logs each time it asks the background store for a write. */
export const BACKGROUND_PUT = "background put";

/**
 * From the next load on, the page logs `BACKGROUND_PUT` each time it asks the background
 * store for a write: an observer, it changes nothing.
 */
export async function reportBackgroundPuts(page: Page): Promise<void> {
  await page.addInitScript((line) => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore["put"]>
    ) {
      if (this.name === "background") console.log(line);
      return put.apply(this, args);
    };
  }, BACKGROUND_PUT);
}

/**
 * Signs out and wipes this user's answers: an answer still waiting on this device is
 * asked about first (keep or discard), and this discards it.
 */
export async function signOutDiscarding(page: Page): Promise<void> {
  await page.getByTestId("sign-out").click();
  const discard = page.getByRole("button", { name: "Discard them and sign out" });
  const signedOut = page.getByTestId("signed-out");
  await signedOut.or(discard).first().waitFor();
  if (await discard.isVisible()) await discard.click();
  await signedOut.waitFor();
}
