import { expect, test } from "vitest";
import { OutcomeCode } from "../protocol/outcome-codes";
import { classifyOutcome } from "./classify";
import type { OutcomeContext } from "./context";
import type { DeliverySignal } from "./delivery-signal";

// DESIGN.md, "Evidence decides verdicts": a server's explicit "nothing ran" and a seen
// tool result are evidence; "lost" only where the evidence is truly missing.

const acked: OutcomeContext = { serverKind: "degraded", sentBefore: true, acked: true, decision: "approve" };
const openNoResult: DeliverySignal = { type: "hydrated", toolEvidence: "none", interruptStillOpen: true };

test("APPROVAL_TOOL_UNAVAILABLE after RUN_STARTED: a retry that says nothing ran", () => {
  const verdict = classifyOutcome(
    { type: "run-error", code: OutcomeCode.TOOL_UNAVAILABLE, message: "Tool is unavailable" },
    acked,
  );
  expect(verdict).toMatchObject({ kind: "retry", rule: "tool-unavailable", nothingRan: true });
  expect(verdict.reason).toMatch(/nothing ran/);
});

test("the question still open after every attempt said nothing ran: sendable again, never lost", () => {
  const verdict = classifyOutcome(openNoResult, { ...acked, nothingRan: true });
  expect(verdict).toMatchObject({ kind: "retry", rule: "hydrated-approve-nothing-ran" });
});

test("the same thread after an attempt that may have run: lost, since nothing says it did not", () => {
  expect(classifyOutcome(openNoResult, acked)).toMatchObject({
    kind: "lost",
    rule: "hydrated-approve-no-tool-result",
  });
});

test("nothing ran, but the thread shows the tool's result: applied, the result outranks", () => {
  const verdict = classifyOutcome(
    { type: "hydrated", toolEvidence: "ran", interruptStillOpen: false },
    { ...acked, nothingRan: true },
  );
  expect(verdict).toMatchObject({ kind: "applied", rule: "hydrated-approve-tool-result" });
});

test.each([
  { type: "stream-ended" },
  { type: "network-error", message: "socket hang up" },
  { type: "stream-stalled" },
  { type: "invalid-stream", kind: "invalid_event", message: "unknown type" },
] as const)("a cut ($type) after every result was seen: applied, the end unseen", (cut) => {
  const verdict = classifyOutcome({ ...cut, toolResultsSeen: true }, acked);
  expect(verdict).toMatchObject({
    kind: "applied",
    rule: "degraded-break-after-tool-results",
    replayed: false,
  });
  expect(verdict.reason).toMatch(/end of the run was not seen/);
});

test("a cut with no result seen reads the thread; a rejection's cut never claims a run", () => {
  expect(classifyOutcome({ type: "stream-ended" }, acked).kind).toBe("hydrate_then_decide");
  const rejected = classifyOutcome(
    { type: "stream-ended", toolResultsSeen: true },
    { ...acked, decision: "reject" },
  );
  expect(rejected.kind).toBe("hydrate_then_decide");
});

test("a contract server's cut re-attaches to see the end, whatever was seen", () => {
  const verdict = classifyOutcome(
    { type: "stream-ended", toolResultsSeen: true },
    { ...acked, serverKind: "contract" },
  );
  expect(verdict.kind).toBe("reattach");
});
