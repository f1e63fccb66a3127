import type { Decision, OutboxEntry } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import type { ServerKind } from "./delivery-signal";

export interface OutcomeContext {
  readonly serverKind: ServerKind;
  /** An attempt *before* this one may have reached the server (not `everSent`, which this one set). */
  readonly sentBefore: boolean;
  /** Contract: this attempt's claim was acked. Degraded: `RUN_STARTED` arrived, or a 200 cut before it. */
  readonly acked: boolean;
  /** A reject or cancel never leaves a tool result behind. */
  readonly decision: Decision["kind"];
  /** Only degraded rules read it (see `serverFamilyOf`). */
  readonly serverFamily?: ServerFamily;
  /** Every attempt so far was answered `APPROVAL_TOOL_UNAVAILABLE`: evidence that nothing ran. */
  readonly nothingRan?: boolean;
  /** The answer was sent with others of its run, in one request (a batch). */
  readonly inBatch?: boolean;
  /** The batch was answered `APPROVAL_RESUME_INDETERMINATE`: its body can never be taken. */
  readonly cutOffInBatch?: boolean;
  /** No attempt was ever made: the answer waits for the others of its run (`held`). */
  readonly neverSent?: boolean;
}

/** A family of servers without the contract whose behaviour needs rules of its own. */
export type ServerFamily = "pydantic-ai";

/** pydantic-ai's adapter (2.68.0, ui/ag_ui/_interrupt.py) names its interrupts `int-<toolCallId>`. */
export function serverFamilyOf(
  entry: Pick<OutboxEntry, "interruptId" | "toolCallId">,
): ServerFamily | undefined {
  return entry.toolCallId !== undefined && entry.interruptId === `int-${entry.toolCallId}`
    ? "pydantic-ai"
    : undefined;
}

const IN_FLIGHT: ReadonlySet<string> = new Set(["sending", "streaming"]);

/** Derives the classifier context from an entry, counting an in-flight attempt as the current one. */
export function outcomeContext(entry: OutboxEntry, serverKind: ServerKind): OutcomeContext {
  const earlierAttempts = IN_FLIGHT.has(entry.state) ? entry.attempts - 1 : entry.attempts;
  const serverFamily = serverKind === "degraded" ? serverFamilyOf(entry) : undefined;
  const nothingRan = entry.attempts > 0 && (entry.counters?.nothingRan ?? 0) >= entry.attempts;
  const inBatch = (entry.batch?.interruptIds.length ?? 0) > 1;
  // Stored, so a reload reads the hydration that follows as the page before would have.
  const cutOffInBatch = inBatch && entry.lastError?.code === OutcomeCode.INDETERMINATE;
  const neverSent = !entry.everSent && entry.attempts === 0;
  return {
    serverKind,
    sentBefore: earlierAttempts > 0,
    acked: entry.cursor.acked,
    decision: entry.decision.kind,
    ...(serverFamily === undefined ? {} : { serverFamily }),
    ...(nothingRan ? { nothingRan } : {}),
    ...(inBatch ? { inBatch } : {}),
    ...(cutOffInBatch ? { cutOffInBatch } : {}),
    ...(neverSent ? { neverSent } : {}),
  };
}
