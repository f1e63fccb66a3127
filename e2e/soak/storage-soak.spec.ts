// The storage and tabs soak: seeded schedules of "close a tab right after answering in it",
// "sign out during delivery" (in either tab, while the server holds the answer), "database
// closed mid-delivery" (another page upgrades it) and "two tabs start background runs",
// with server faults. `SOAK_RUNS` schedules per scenario from `SOAK_SEED`, as the chaos
// soak; a failing schedule prints its seed. `SOAK_CPU_THROTTLE=<rate>` slows every tab.
import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page, type Request, test } from "@playwright/test";
import {
  approvalCard,
  approve,
  askToDeploy,
  isResume,
  openThread,
  outboxRows,
  readBackgroundRuns,
  readStoredEntries,
  signOutDiscarding,
} from "../support/demo-page";
import { type Fault, MockControl } from "../support/mock-control";
import { checkHistory } from "./check-history";
import { formatViolations } from "./describe-history";
import { CLIENT_BUDGETS } from "./history";
import { mulberry32, type Random, scheduleSeed } from "./prng";
import { HistoryRecorder, readServerTruth } from "./record-history";

interface SoakMetadata {
  readonly mockUrl: string;
  readonly soakRuns?: number;
  readonly soakRandomSeed?: boolean;
}

const FIXED_SEED = 20_261_201;
const SETTLE_MS = 45_000;
const DEMO_DB = "agui-outbox-demo";

const Scenario = {
  closeAfterAnswer: "close-after-answer",
  signOutDuringDelivery: "sign-out-during-delivery",
  databaseUpgraded: "database-upgraded-mid-delivery",
  twoTabsBackground: "two-tabs-start-background-runs",
} as const;
type Scenario = (typeof Scenario)[keyof typeof Scenario];

/** Faults that leave a verdict reachable and keep delivery in flight for a while. */
function drawFaults(random: Random): Omit<Fault, "threadId">[] {
  const pool: Array<() => Omit<Fault, "threadId">> = [
    () => ({
      point: "before-response",
      action: "status",
      status: random.pick([429, 503]),
      retryAfterMs: random.int(0, 1000),
    }),
    () => ({ point: "before-response", action: "delay", delayMs: random.int(100, 800) }),
    () => ({ point: "after-claim", action: "delay", delayMs: random.int(100, 800) }),
    () => ({ point: "mid-stream", action: "drop", afterEvents: random.int(1, 5) }),
  ];
  return Array.from({ length: random.int(0, 2) }, () => random.pick(pool)());
}

/** The thread of a background start request (a run POST with `forwardedProps.background`), else null. */
function backgroundStartThread(request: Request): string | null {
  if (request.method() !== "POST") return null;
  try {
    const body = request.postDataJSON() as {
      threadId?: unknown;
      forwardedProps?: { background?: unknown };
    } | null;
    return body?.forwardedProps?.background === true && typeof body.threadId === "string"
      ? body.threadId
      : null;
  } catch {
    return null;
  }
}

/**
 * A new tab. `SOAK_CPU_THROTTLE=<rate>` slows its CPU that many times (Chromium's
 * emulation), to replay on a quiet machine what a loaded one does.
 */
async function newTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const rate = Number(process.env.SOAK_CPU_THROTTLE ?? 1);
  if (rate > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate });
  return page;
}

async function upgradeDatabase(page: Page): Promise<void> {
  await page.evaluate(async (name) => {
    const known = (await indexedDB.databases()).find((database) => database.name === name);
    const version = (known?.version ?? 1) + 1;
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, version);
      request.onupgradeneeded = () => request.result.createObjectStore(`added-in-v${version}`);
      request.onblocked = () => reject(new Error("the upgrade was blocked"));
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
  }, DEMO_DB);
}

async function responsive(page: Page): Promise<boolean> {
  return Promise.race([
    page.evaluate(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
  ]);
}

/**
 * Signs out in one of the two tabs while the server holds the answer, signs in again as the
 * same user, and reads the truth: storage, both tabs' trays, and every resume either tab
 * sent after the sign-out (there must be none).
 */
async function signOutDuringDelivery(
  random: Random,
  mock: MockControl,
  tabs: readonly [Page, Page],
  threadId: string,
): Promise<string[]> {
  const violations: string[] = [];
  const holdMs = random.int(200, 1500);
  const faults = [
    ...drawFaults(random),
    { point: "after-claim", action: "delay", delayMs: holdMs } as const,
  ].map((fault) => ({ ...fault, threadId }));
  await mock.addFaults(...faults);
  let signedOut = false;
  const resentAfterSignOut: string[] = [];
  for (const tab of tabs)
    tab.on("request", (request) => {
      if (signedOut && isResume(request)) resentAfterSignOut.push(request.headers()["idempotency-key"] ?? "");
    });
  const answering = tabs[random.int(0, 1)] as Page;
  const leaving = tabs[random.int(0, 1)] as Page;
  const staying = leaving === tabs[0] ? tabs[1] : tabs[0];
  await approvalCard(answering).getByTestId("approve").click();
  await answering.locator('[data-testid="approval-card"]:not([data-state="unanswered"])').waitFor();
  await new Promise((resolve) => setTimeout(resolve, random.int(0, 600)));
  await signOutDiscarding(leaving);
  signedOut = true;
  const gone = async (when: string) => {
    const left = (await readStoredEntries(staying)).filter(
      (entry) => entry.namespace === "demo:alice" && entry.threadId === threadId,
    );
    if (left.length > 0)
      violations.push(`${when}: storage still holds ${left.map((entry) => entry.state).join(", ")}`);
  };
  await gone("right after the sign-out");
  // Whatever the server held has answered by now.
  await new Promise((resolve) => setTimeout(resolve, holdMs + 1500));
  for (const tab of tabs) if (!(await responsive(tab))) violations.push("a tab froze after the sign-out");
  await leaving.getByLabel("User").selectOption("alice");
  await leaving.getByTestId("sign-in").click();
  await openThread(leaving, threadId);
  await staying.reload();
  await openThread(staying, threadId);
  await expect
    .poll(
      async () =>
        (
          await Promise.all(tabs.map((tab) => tab.getByTestId("connection").getAttribute("data-leader")))
        ).includes("true"),
      { timeout: SETTLE_MS },
    )
    .toBe(true)
    .catch(() => violations.push("no tab sends after signing in again"));
  await gone("after signing in again");
  for (const tab of tabs)
    await expect(outboxRows(tab))
      .toHaveCount(0, { timeout: 5000 })
      .catch(() => violations.push("a tab shows the signed-out user's answer again"));
  if (resentAfterSignOut.length > 0)
    violations.push(`resumes sent after the sign-out: ${resentAfterSignOut.length}`);
  const keys = new Set(await mock.resumeKeys(threadId));
  if (keys.size > 1) violations.push(`the server received ${keys.size} idempotency keys for one answer`);
  const ran = (await mock.ledger(threadId)).length;
  if (ran > 1) violations.push(`the tool ran ${ran} times`);
  return violations;
}

/** One schedule; the broken promises, in words. */
async function runOne(
  browser: Browser,
  baseURL: string,
  mock: MockControl,
  scenario: Scenario,
  seed: number,
) {
  const random = mulberry32(seed);
  const threadId = `storage-soak-${seed}-${randomUUID().slice(0, 4)}`;
  await mock.reset();
  const context = await browser.newContext({ baseURL });
  const recorder = await HistoryRecorder.attach(context);
  try {
    const first = await newTab(context);
    if (scenario === Scenario.twoTabsBackground) {
      const second = await newTab(context);
      const threads = [threadId, `${threadId}-b`] as const;
      await openThread(first, threads[0]);
      await openThread(second, threads[1]);
      for (const [page, thread] of [
        [first, threads[0]],
        [second, threads[1]],
      ] as const) {
        await page.getByLabel("Your message", { exact: true }).fill("please deploy to prod");
        if (random.chance(0.5))
          await mock.addFaults({ point: "before-response", action: "status", status: 503, threadId: thread });
      }
      // Which threads' start requests left a tab (the server may have started those runs).
      const startsSent = new Set<string>();
      for (const page of [first, second])
        page.on("request", (request) => {
          const threadOfStart = backgroundStartThread(request);
          if (threadOfStart !== null) startsSent.add(threadOfStart);
        });
      const buttons = await Promise.all(
        [first, second].map((page) => page.getByTestId("send-background").elementHandle()),
      );
      await Promise.all(
        buttons.map((button) => button?.evaluate((element) => (element as HTMLElement).click())),
      );
      const expected = new Set<string>(threads);
      const violations: string[] = [];
      let verdict = "background";
      if (random.chance(0.5)) {
        const reloading = random.int(0, 1);
        await ([first, second][reloading] as Page).reload();
        // A reload right after the click may come before the run was written ahead: the
        // old page's write died with it (measured under load: the put was issued, never
        // committed) and its start never went out. Such a run must leave no trace at all;
        // one that was written ahead must be started and finished by whichever tab sends.
        const cut = threads[reloading] as string;
        const stored = await readBackgroundRuns(first);
        if (!stored.some((record) => record.threadId === cut)) {
          expected.delete(cut);
          verdict = "background, one cut before it was written";
        }
      }
      // Each deploy asks first: each tab approves the question of its own thread.
      for (const [index, page] of [first, second].entries()) {
        const thread = threads[index] as string;
        if (!expected.has(thread)) continue;
        await approvalCard(page)
          .getByRole("heading", { name: "Deploy to prod?" })
          .waitFor({ timeout: SETTLE_MS })
          .then(() => approve(page))
          .catch(() => violations.push(`the background run of ${thread} asked no question`));
      }
      for (const page of [first, second]) {
        await expect(page.getByTestId("background-run"))
          .toHaveCount(expected.size, { timeout: SETTLE_MS })
          .catch(() => violations.push(`a tab does not list the ${expected.size} background runs`));
        await expect(page.locator('[data-testid="background-run"][data-verdict="completed"]'))
          .toHaveCount(expected.size, { timeout: SETTLE_MS })
          .catch(() => violations.push(`not all ${expected.size} background runs completed`));
      }
      for (const thread of threads) {
        const ran = (await mock.ledger(thread)).length;
        const wanted = expected.has(thread) ? 1 : 0;
        if (ran !== wanted)
          violations.push(`the background run of ${thread} ran its tool ${ran} times, not ${wanted}`);
        if (!expected.has(thread) && startsSent.has(thread))
          violations.push(`the start of ${thread} reached the server, but no tab kept its run`);
      }
      return { violations, verdict };
    }

    await openThread(first, threadId);
    await askToDeploy(first);
    const second = await newTab(context);
    await openThread(second, threadId);
    await second.locator('[data-testid="approval-card"][data-state="unanswered"]').waitFor();
    if (scenario === Scenario.signOutDuringDelivery) {
      const violations = await signOutDuringDelivery(random, mock, [first, second], threadId);
      // The sign-out wipes the answer on purpose: what the server did is still held to the promises.
      await recorder.flush();
      const history = {
        threadId,
        asked: [],
        steps: recorder.steps,
        server: await readServerTruth(mock, threadId, true),
        cards: [],
        budgets: CLIENT_BUDGETS,
        requireFinal: false,
      };
      const kept = checkHistory(history).filter((violation) => violation.promise !== "settles");
      violations.push(...formatViolations(history, kept));
      return { violations, verdict: "signed-out" };
    }
    const interruptId = (await approvalCard(first).getAttribute("data-interrupt-id")) ?? "";
    const faults = drawFaults(random);
    if (faults.length > 0) await mock.addFaults(...faults.map((fault) => ({ ...fault, threadId })));
    const tabs = [first, second];
    const answerIn = random.int(0, 1);
    const answering = tabs[answerIn] as Page;
    await approvalCard(answering).getByTestId("approve").click();
    await answering.locator('[data-testid="approval-card"]:not([data-state="unanswered"])').waitFor();
    const violations: string[] = [];
    let watcher = tabs[1 - answerIn] as Page;
    if (scenario === Scenario.closeAfterAnswer) {
      await answering.close();
    } else {
      await new Promise((resolve) => setTimeout(resolve, random.int(0, 800)));
      const upgrader = await newTab(context);
      await upgrader.goto("/");
      await upgradeDatabase(upgrader);
      await upgrader.close();
      watcher = answering;
      for (const page of tabs)
        if (!(await responsive(page))) violations.push("a tab froze after the upgrade");
    }
    await recorder.settled(threadId, SETTLE_MS);
    await recorder.closeWithDisk(watcher);
    const entries = recorder.latest(threadId);
    const card = approvalCard(watcher);
    // Gives the card up to 5 s to catch up with storage; a card that never does is not
    // dropped here but reported by the checker below, from its state read after.
    await expect(card)
      .toHaveAttribute("data-state", entries[0]?.state ?? "", { timeout: 5000 })
      .catch(() => {});
    const decision = card.getByTestId("approval-decision");
    const history = {
      threadId,
      asked: [interruptId],
      steps: recorder.steps,
      server: await readServerTruth(mock, threadId, true),
      cards: [
        {
          tab: tabs.indexOf(watcher),
          interruptId,
          state: (await card.count()) === 1 ? await card.getAttribute("data-state") : null,
          decisionText: (await decision.count()) === 1 ? await decision.textContent() : null,
        },
      ],
      budgets: CLIENT_BUDGETS,
      requireFinal: true,
    };
    violations.push(...formatViolations(history, checkHistory(history)));
    return { violations, verdict: entries.map((entry) => entry.state).join("+") || "none" };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { violations: [`the schedule could not run: ${message}`], verdict: "error" };
  } finally {
    await context.close();
  }
}

for (const scenario of Object.values(Scenario)) {
  test(`storage soak: ${scenario}`, async ({ browser }, testInfo) => {
    const metadata = testInfo.project.metadata as SoakMetadata;
    const baseURL = testInfo.project.use.baseURL;
    if (baseURL === undefined) throw new Error("the project names no baseURL");
    // One schedule per scenario in the end-to-end suite; SOAK_RUNS in `npm run soak`.
    const runs = Number(process.env.SOAK_RUNS ?? (metadata.soakRuns === undefined ? 1 : metadata.soakRuns));
    const base =
      process.env.SOAK_SEED !== undefined
        ? Number(process.env.SOAK_SEED)
        : metadata.soakRandomSeed
          ? Math.floor(Math.random() * 4294967296)
          : FIXED_SEED;
    test.setTimeout(runs * 120_000);
    const mock = new MockControl(metadata.mockUrl);
    const failures: string[] = [];
    const verdicts = new Map<string, number>();
    const started = Date.now();
    for (let index = 0; index < runs; index += 1) {
      // SOAK_SCHEDULE replays one printed schedule seed (with SOAK_RUNS=1 and -g its scenario).
      const seed =
        process.env.SOAK_SCHEDULE !== undefined
          ? Number(process.env.SOAK_SCHEDULE)
          : scheduleSeed(base, index);
      const result = await runOne(browser, baseURL, mock, scenario, seed);
      verdicts.set(result.verdict, (verdicts.get(result.verdict) ?? 0) + 1);
      if (result.violations.length > 0) {
        failures.push(
          [`VIOLATION ${scenario} seed ${seed}`, ...result.violations.map((line) => `  - ${line}`)].join(
            "\n",
          ),
        );
        console.log(failures.at(-1));
      }
      // A long soak says how far it got, so a run cut short still reports what it covered.
      if ((index + 1) % 20 === 0 && index + 1 < runs)
        console.log(
          `${scenario}: ${index + 1}/${runs} schedules, violations ${failures.length}, seconds ${Math.round((Date.now() - started) / 1000)}`,
        );
    }
    const spread = [...verdicts].map(([verdict, count]) => `${verdict} ${count}`).join(", ");
    console.log(
      `${scenario}: schedules ${runs} from SOAK_SEED=${base}, violations ${failures.length}, verdicts ${spread}, seconds ${Math.round((Date.now() - started) / 1000)}`,
    );
    expect(failures).toEqual([]);
  });
}
