// Servers without the recovery contract (the mock's Agent Framework emulations): the demo
// applies DESIGN.md's degraded rules. No answer is silently dropped, and the client never
// makes a tool run twice.

import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  conversation,
  DEGRADED,
  openThread,
  outboxRows,
} from "../support/demo-page";
import { expect, test } from "../support/fixtures";
import type { Fault, MockMode } from "../support/mock-control";

type Verdict = "applied" | "lost";
type AfMode = "af-legacy" | "af-lifecycle";

interface Case {
  readonly title: string;
  /** Faults for the answer's delivery (the thread id is added), or each mode's own. */
  readonly faults:
    | readonly Omit<Fault, "threadId">[]
    | Readonly<Record<AfMode, readonly Omit<Fault, "threadId">[]>>;
  readonly verdict: Readonly<Record<AfMode, Verdict>>;
  /** How many resume requests the client makes, when the rules fix it. */
  readonly resumes?: Readonly<Record<AfMode, number>>;
}

// Without the contract, RUN_STARTED (sent only once the tool ran) means the tool ran: a
// failure after it is settled by reading the thread, never by a resend. Agent Framework
// 1.7 (af-lifecycle, checked against the real server in docs/interop.md) keeps the tool's
// result in the thread when the model call after it fails: "applied". The legacy
// generation records it only when the run finishes: "lost", the answer kept, run once.
const CASES: readonly Case[] = [
  {
    title: "a plain approval is applied",
    faults: [],
    verdict: { "af-legacy": "applied", "af-lifecycle": "applied" },
  },
  {
    // Legacy reports this failure as a bare RUN_ERROR, with no sign the tool ran: one
    // resend (answered NOT_FOUND), then the thread. Lifecycle: RUN_STARTED first, no resend.
    title: "the model call failing after the tool ran: settled from the thread",
    faults: [{ point: "after-tool", action: "fail" }],
    verdict: { "af-legacy": "lost", "af-lifecycle": "applied" },
    resumes: { "af-legacy": 2, "af-lifecycle": 1 },
  },
  {
    // Legacy aborts a run whose client went away; lifecycle finishes it and records the result.
    // Legacy's second frame is the tool's result, which the client may or may not read
    // before the cut (one it read is "applied" by itself): cut it after RUN_STARTED.
    title: "the stream cut after the tool ran: settled from the thread",
    faults: {
      "af-legacy": [{ point: "mid-stream", action: "drop", afterEvents: 1 }],
      "af-lifecycle": [{ point: "mid-stream", action: "drop", afterEvents: 2 }],
    },
    verdict: { "af-legacy": "lost", "af-lifecycle": "applied" },
  },
  {
    // Reported before RUN_STARTED: retried, and the server answers from its own records.
    title: "a tool cut off mid-run: lost, answer kept",
    faults: [{ point: "mid-tool", action: "fail" }],
    verdict: { "af-legacy": "lost", "af-lifecycle": "lost" },
  },
];

for (const mode of ["af-legacy", "af-lifecycle"] as const satisfies readonly MockMode[]) {
  test.describe(mode, () => {
    for (const scenario of CASES) {
      const verdict = scenario.verdict[mode];
      test(`${scenario.title} (${verdict})`, async ({ page, mock, threadId }) => {
        await mock.setMode(mode);
        // A fresh page reads the capabilities again: no recovery contract.
        await openThread(page, threadId, DEGRADED);
        await expect(page.getByTestId("connection")).toHaveAttribute("data-server-kind", "degraded");
        await askToDeploy(page);
        const faults = "length" in scenario.faults ? scenario.faults : scenario.faults[mode];
        if (faults.length > 0) await mock.addFaults(...faults.map((fault) => ({ ...fault, threadId })));

        await approve(page);
        const card = approvalCard(page);
        await expect(card).toHaveAttribute("data-state", verdict, { timeout: 30_000 });
        await expect(card.getByTestId("approval-decision")).toHaveText("You approved.");
        await expect(outboxRows(page)).toHaveCount(1);
        await expect(outboxRows(page)).toHaveAttribute("data-state", verdict);
        if (verdict === "applied") {
          await expect(cardStatus(page)).toHaveText(/^Applied/);
          // The tool's result, read from the thread (no model text follows a failed model call).
          await expect(conversation(page)).toContainText('{"deployed":true,"target":"prod"}');
        } else {
          // Both emulations are servers without the contract: the card says what they did not say.
          await expect(cardStatus(page)).toHaveText(
            "Outcome unknown — the server took your answer but did not say what happened; the tool may have run. Your answer is kept.",
          );
        }
        expect(await mock.ledger(threadId)).toHaveLength(1);
        // Counted at the server: every request under the one key the answer has.
        const keys = await mock.resumeKeys(threadId);
        expect(new Set(keys).size).toBe(1);
        if (scenario.resumes !== undefined) expect(keys).toHaveLength(scenario.resumes[mode]);
      });
    }
  });
}
