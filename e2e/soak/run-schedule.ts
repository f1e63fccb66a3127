// Runs one schedule in a fresh browser context: ask, answer, disturb, settle, observe.
import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { approvalCard, askToDeploy, CONTRACT, DEGRADED, openThread } from "../support/demo-page";
import type { MockControl } from "../support/mock-control";
import { checkHistory } from "./check-history";
import { formatViolations, historyExcerpt } from "./describe-history";
import { type CardView, CLIENT_BUDGETS, type EntryStep, type History } from "./history";
import { HistoryRecorder, readServerTruth } from "./record-history";
import type { Schedule } from "./schedule";

export interface ScheduleResult {
  /** Each broken promise, the earliest step first. */
  readonly violations: string[];
  /** The history up to the first violation, when there is one. */
  readonly excerpt: string[];
  /** The whole history, one line per step. */
  readonly history: string[];
  readonly executions: number;
  readonly verdict: string;
  readonly ms: number;
  /** Milliseconds per phase, for finding where a schedule spends its time. */
  readonly phases: string;
}

/** After faults stop, the longest an answer may take to settle: the backoff cap plus slack. */
const SETTLE_MS = 45_000;

/** Answers every question on screen with the schedule's decision (edits on the first only). */
async function answer(page: Page, schedule: Schedule): Promise<void> {
  for (let index = 0; index < schedule.questions; index += 1) {
    const card = approvalCard(page).nth(index);
    if (schedule.decision === "reject") await card.getByTestId("reject").click();
    else {
      if (schedule.decision === "approve-edited" && index === 0)
        await card.getByRole("textbox", { name: /Target/ }).fill("staging");
      await card.getByTestId("approve").click();
    }
    await expect(card).not.toHaveAttribute("data-state", "unanswered");
  }
}

/** Asks the question(s) and waits until every card is on screen, unanswered. */
async function ask(page: Page, schedule: Schedule): Promise<void> {
  if (schedule.questions === 1) {
    await askToDeploy(page);
    return;
  }
  await page.getByLabel("Your message", { exact: true }).fill("deploy to prod and staging");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator('[data-testid="approval-card"][data-state="unanswered"]')).toHaveCount(2);
}

/** Every card of one tab, as the person sees it. */
async function readCards(page: Page, tab: number, entries: readonly EntryStep[]): Promise<CardView[]> {
  const views: CardView[] = [];
  for (const entry of entries) {
    const card = page.locator(`[data-testid="approval-card"][data-interrupt-id="${entry.interruptId}"]`);
    // The screen follows the store: give it a moment to show the settled state.
    await expect(card)
      .toHaveAttribute("data-state", entry.state, { timeout: 5000 })
      .catch(() => undefined);
    const state = (await card.count()) === 1 ? await card.getAttribute("data-state") : null;
    const decision = card.getByTestId("approval-decision");
    const decisionText = (await decision.count()) === 1 ? await decision.textContent() : null;
    views.push({ tab, interruptId: entry.interruptId, state, decisionText });
  }
  return views;
}

/** Runs one schedule in a fresh browser context (its own IndexedDB, storage and tabs). */
export async function runSchedule(
  browser: Browser,
  baseURL: string,
  mock: MockControl,
  schedule: Schedule,
  /** Started as the answer is given (replica kills), awaited once it settled; says what it did. */
  disturb?: (threadId: string) => Promise<string>,
): Promise<ScheduleResult> {
  const started = Date.now();
  const marks: string[] = [];
  let last = started;
  const mark = (name: string): void => {
    const now = Date.now();
    marks.push(`${name} ${now - last}`);
    last = now;
  };
  const threadId = `soak-${schedule.seed}-${randomUUID().slice(0, 4)}`;
  await mock.reset();
  await mock.setMode(schedule.server);
  const context = await browser.newContext({ baseURL });
  const recorder = await HistoryRecorder.attach(context);
  // Capabilities failing at start: the client must send nothing until it knows the server.
  let capabilityFailures = schedule.capabilityFailures;
  if (capabilityFailures > 0) {
    await context.route("**/agent/capabilities", (route) => {
      if (capabilityFailures <= 0) return route.continue();
      capabilityFailures -= 1;
      return route.fulfill({ status: 503, body: "unavailable" });
    });
  }
  mark("context");
  try {
    const tabs: (Page | null)[] = [await context.newPage()];
    const first = tabs[0] as Page;
    const serverSays = schedule.server === "fixed" ? CONTRACT : DEGRADED;
    await openThread(first, threadId, serverSays);
    mark("open");
    await ask(first, schedule);
    mark("ask");
    if (schedule.secondTab) {
      const second = await context.newPage();
      await openThread(second, threadId, serverSays);
      await expect(second.locator('[data-testid="approval-card"][data-state="unanswered"]')).toHaveCount(
        schedule.questions,
      );
      tabs.push(second);
    }
    const interruptIds = await approvalCard(first).evaluateAll((cards) =>
      cards.map((card) => card.getAttribute("data-interrupt-id") ?? ""),
    );
    if (schedule.faults.length > 0)
      await mock.addFaults(...schedule.faults.map((fault) => ({ ...fault, threadId })));

    mark("setup");
    const disturbed = disturb?.(threadId);
    await answer(tabs[schedule.answerIn] as Page, schedule);
    mark("answer");
    for (const step of schedule.steps) {
      if (step.kind === "wait") await new Promise((resolve) => setTimeout(resolve, step.ms));
      else if (step.kind === "offline") {
        await context.setOffline(true);
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        await context.setOffline(false);
      } else if (step.kind === "reload") await tabs[step.tab]?.reload();
      else {
        await tabs[0]?.close();
        tabs[0] = null;
      }
    }
    await context.setOffline(false);
    mark("steps");

    const open = tabs.flatMap((page, tab) => (page === null ? [] : [{ page, tab }]));
    const watcher = open[0];
    if (watcher === undefined) throw new Error("no tab left open");
    await recorder.settled(threadId, SETTLE_MS);
    await recorder.closeWithDisk(watcher.page);
    const entries = recorder.latest(threadId);
    mark("settle");
    if (disturbed !== undefined) marks.push(`disturbed: ${await disturbed}`);
    const cards: CardView[] = [];
    for (const { page, tab } of open) cards.push(...(await readCards(page, tab, entries)));
    const server = await readServerTruth(mock, threadId, schedule.server === "fixed");
    mark("observe");
    const history: History = {
      threadId,
      asked: interruptIds,
      steps: recorder.steps,
      server,
      cards,
      budgets: CLIENT_BUDGETS,
      requireFinal: true,
    };
    const violations = checkHistory(history);
    const earliest = violations[0];
    return {
      violations: formatViolations(history, violations),
      excerpt: earliest === undefined ? [] : historyExcerpt(history, earliest.step),
      history: historyExcerpt(history, history.steps.length, history.steps.length),
      executions: server.executions.length,
      verdict: entries.map((entry) => entry.state).join("+") || "none",
      ms: Date.now() - started,
      phases: marks.join(", "),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return {
      violations: [`the schedule could not run: ${message}`],
      excerpt: [],
      history: [],
      executions: 0,
      verdict: "error",
      ms: Date.now() - started,
      phases: marks.join(", "),
    };
  } finally {
    await context.close();
  }
}
