// Properties of the verdict classifier over every signal in every context: a verdict claims
// no more than the signal shows. The evidence is stated here from DESIGN.md ("Evidence decides
// verdicts"), apart from the rules, so the rules can change and still be held to it.
import fc from "fast-check";
import { expect, test } from "vitest";
import { assertProperty, PROPERTY_RUNS } from "../../test/support/property";
import { OutcomeCode } from "../protocol/outcome-codes";
import { classifyOutcome } from "./classify";
import type { OutcomeContext } from "./context";
import { type DeliverySignal, InvalidStreamKind } from "./delivery-signal";
import { ToolEvidence } from "./tool-evidence";

const code = fc.option(
  fc.oneof(
    fc.constantFrom(...Object.values(OutcomeCode)),
    fc.string({ maxLength: 12 }),
    fc.constantFrom("X_INDETERMINATE", "X_EXPIRED", "X_INVALID"),
  ),
  { nil: undefined },
);
// Words the degraded rules read in messages, among any text.
const message = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    "the result is indeterminate",
    "conflicts with a recorded decision",
    "not pending",
    "answers 1 tool call(s) that the stored conversation is not waiting on",
    "Processed history cannot be empty.",
  ),
);
const evidence = fc.constantFrom(...Object.values(ToolEvidence));
const flag = fc.option(fc.constant(true), { nil: undefined });

const context: fc.Arbitrary<OutcomeContext> = fc
  .record({
    serverKind: fc.constantFrom("contract", "degraded"),
    sentBefore: fc.boolean(),
    acked: fc.boolean(),
    decision: fc.constantFrom("approve", "reject", "cancel"),
    pydanticAi: fc.boolean(),
    neverSent: fc.boolean(),
  })
  .map(({ pydanticAi, neverSent, ...rest }) => ({
    ...rest,
    ...(pydanticAi && rest.serverKind === "degraded" ? { serverFamily: "pydantic-ai" as const } : {}),
    // Only an answer no attempt ever carried is "never sent".
    ...(neverSent && !rest.sentBefore ? { neverSent } : {}),
  }));

/**
 * Every signal the transport can hand over, with any values. As the transport does, a
 * finished run carries the streamed thread's evidence on a server without the contract
 * only (delivery-transport.ts, `withToolEvidence`).
 */
function signalFor(serverKind: OutcomeContext["serverKind"]): fc.Arbitrary<DeliverySignal> {
  const finished = fc
    .record({ replayed: fc.boolean(), toolEvidence: evidence, skippedInBatch: flag, askedAgain: flag })
    .map(
      ({ toolEvidence, skippedInBatch, askedAgain, replayed }): DeliverySignal => ({
        type: "run-finished",
        replayed,
        ...(serverKind === "degraded" ? { toolEvidence } : {}),
        ...(skippedInBatch === undefined ? {} : { skippedInBatch }),
        ...(askedAgain === undefined ? {} : { askedAgain }),
      }),
    );
  // The signals that carry evidence weigh more: their combinations are where rules differ.
  return fc.oneof(
    { weight: 4, arbitrary: finished },
    fc.record({ type: fc.constant("run-started"), acked: fc.boolean() }),
    fc.record({ code, message, claimedBy: fc.option(fc.string(), { nil: undefined }) }).map(
      ({ code, message, claimedBy }): DeliverySignal => ({
        type: "run-error",
        message,
        ...(code === undefined ? {} : { code }),
        ...(claimedBy === undefined ? {} : { claimedBy }),
      }),
    ),
    fc
      .record({ status: fc.integer({ min: 100, max: 599 }), code, message, retryAfterMs: fc.nat(60_000) })
      .map(
        ({ status, code, message, retryAfterMs }): DeliverySignal => ({
          type: "http-status",
          status,
          message,
          retryAfterMs,
          ...(code === undefined ? {} : { code }),
        }),
      ),
    fc.constantFrom<DeliverySignal>(
      { type: "network-error" },
      { type: "stream-ended" },
      { type: "stream-stalled" },
      { type: "reattach-gone", status: 404 },
      { type: "reattach-gone", status: 410 },
      { type: "run-status", status: "running" },
      { type: "run-status", status: "not-found" },
    ),
    fc
      .constantFrom(...Object.values(InvalidStreamKind))
      .map((kind): DeliverySignal => ({ type: "invalid-stream", kind, message: "unreadable" })),
    {
      weight: 3,
      arbitrary: fc
        .record({ toolEvidence: evidence, interruptStillOpen: fc.boolean() })
        .map((seen): DeliverySignal => ({ type: "hydrated", ...seen })),
    },
    fc.nat(20).map((attempts): DeliverySignal => ({ type: "retry-budget-exhausted", attempts })),
  );
}

const cases = context.chain((ctx) => fc.tuple(fc.constant(ctx), signalFor(ctx.serverKind)));

/** The classifier is cheap: ten times the default runs reach its rarer combinations. */
const RUNS = PROPERTY_RUNS * 10;

/** Evidence that nothing of the tool ran, from a thread: the server's rejection, or no trace of it. */
const nothingRan = (seen: ToolEvidence) => seen === "rejected" || seen === "none" || seen === "not_run";

/** What shows that the answer took effect (DESIGN.md, the verdict table and "Evidence decides verdicts"). */
function showsTakenEffect(signal: DeliverySignal, ctx: OutcomeContext): boolean {
  const approved = ctx.decision === "approve";
  switch (signal.type) {
    case "run-finished":
      // The contract's RUN_FINISHED after our resume, or its replay of a recorded outcome.
      if (signal.replayed || ctx.serverKind === "contract") return true;
      // Without the contract, only the streamed thread: the tool's own result, or for a
      // rejection no trace of the tool having run.
      return approved ? signal.toolEvidence === "ran" : nothingRan(signal.toolEvidence ?? "none");
    case "hydrated":
      if (approved) return signal.toolEvidence === "ran";
      return (
        signal.toolEvidence === "rejected" || (nothingRan(signal.toolEvidence) && !signal.interruptStillOpen)
      );
    case "run-error":
    case "http-status":
      // The server says our cancellation took effect.
      return ctx.decision === "cancel" && signal.code === OutcomeCode.CANCELLED;
    default:
      return false;
  }
}

/** What shows the outcome outright: the tool's result for an approval, a finished contract run. */
function showsOutcome(signal: DeliverySignal, ctx: OutcomeContext): boolean {
  if (signal.type === "run-finished") return ctx.serverKind === "contract" || signal.replayed;
  if (signal.type !== "hydrated") return false;
  return ctx.decision === "approve" ? signal.toolEvidence === "ran" : signal.toolEvidence === "rejected";
}

test('no signal yields "applied" without evidence that the answer took effect', async () => {
  await assertProperty(
    fc.property(cases, ([ctx, signal]) => {
      const verdict = classifyOutcome(signal, ctx);
      if (verdict.kind === "applied")
        expect(showsTakenEffect(signal, ctx), `${verdict.rule}: ${JSON.stringify({ signal, ctx })}`).toBe(
          true,
        );
    }),
    RUNS,
  );
});

test('no signal that shows the outcome, nor a server saying the tool is unavailable, yields "lost"', async () => {
  await assertProperty(
    fc.property(cases, ([ctx, signal]) => {
      const verdict = classifyOutcome(signal, ctx);
      const unavailable = "code" in signal && signal.code === OutcomeCode.TOOL_UNAVAILABLE;
      if (verdict.kind === "lost")
        expect(
          showsOutcome(signal, ctx) || unavailable,
          `${verdict.rule}: ${JSON.stringify({ signal, ctx })}`,
        ).toBe(false);
    }),
    RUNS,
  );
});

test("every signal in every context gets a verdict, with its rule named", async () => {
  await assertProperty(
    fc.property(cases, ([ctx, signal]) => {
      const verdict = classifyOutcome(signal, ctx);
      expect(typeof verdict.rule).toBe("string");
      expect(typeof verdict.reason).toBe("string");
    }),
    RUNS,
  );
});
