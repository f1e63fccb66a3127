// The recovery specs' `test`, with a history recorded and checked: a spec opts in by
// importing `test` from here instead of support/fixtures. After the spec, its thread's
// history (check-history.ts) must keep every promise; an answer still in flight when the
// spec ends is not held to settling, a settled one is held to everything.
import { expect, test as recovery } from "../support/fixtures";
import { checkHistory } from "./check-history";
import { formatViolations, historyExcerpt } from "./describe-history";
import { CLIENT_BUDGETS, type History } from "./history";
import { HistoryRecorder, readServerTruth } from "./record-history";

export const test = recovery.extend<{ history: HistoryRecorder }>({
  history: [
    async ({ context, mock, threadId }, use, testInfo) => {
      const recorder = await HistoryRecorder.attach(context);
      await use(recorder);
      const open = context.pages().find((page) => !page.isClosed());
      if (open === undefined) await recorder.flush();
      else await recorder.closeWithDisk(open);
      const entries = recorder.latest(threadId);
      const history: History = {
        threadId,
        asked: [...new Set(entries.map((entry) => entry.interruptId))],
        steps: recorder.steps,
        server: await readServerTruth(mock, threadId, (await mock.mode()) === "fixed"),
        cards: [],
        budgets: CLIENT_BUDGETS,
        requireFinal: false,
      };
      const violations = checkHistory(history);
      const first = violations[0];
      if (first !== undefined)
        await testInfo.attach("history", { body: historyExcerpt(history, first.step).join("\n") });
      expect(formatViolations(history, violations), "the history's broken promises").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
