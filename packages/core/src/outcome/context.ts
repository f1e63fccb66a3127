import type { Decision, OutboxEntry } from "../outbox/entry";
import { OutcomeCode } from "../protocol/outcome-codes";
import type { ServerKind } from "./delivery-signal";

/** What the classifier needs to know besides the signal itself. */
export interface OutcomeContext {
  readonly serverKind: ServerKind;
  /**
   * An attempt *before* the one this signal answers may have reached the
   * server. Not `entry.everSent`, which the current attempt already set: a
   * first attempt answered `NOT_FOUND` is a stale card, a later one is not.
   */
  readonly sentBefore: boolean;
  /**
   * Contract: `RUN_STARTED` carried the claim ack for this attempt.
   * Degraded: `RUN_STARTED` arrived after our resume, so the tool ran.
   */
  readonly acked: boolean;
  /** What the person decided; a reject or cancel never leaves a tool result behind. */
  readonly decision: Decision["kind"];
  /**
   * The server family, where what it serves names it (see `serverFamilyOf`);
   * absent for every other server. Only degraded rules read it.
   */
  readonly serverFamily?: ServerFamily;
  /**
   * Every attempt so far (the current one included) was answered by the server's
   * explicit "nothing ran" (`APPROVAL_TOOL_UNAVAILABLE`): evidence that no attempt
   * ran the tool, whatever `RUN_STARTED` suggested.
   */
  readonly nothingRan?: boolean;
  /** The answer was sent with others of its run, in one request (a batch). */
  readonly inBatch?: boolean;
  /**
   * The batch's request was answered `APPROVAL_RESUME_INDETERMINATE`: one tool of
   * it was cut off, so the same body can never be taken; each answer is read for
   * its own evidence.
   */
  readonly cutOffInBatch?: boolean;
  /** No attempt was ever made: the answer waits for the others of its run (`held`). */
  readonly neverSent?: boolean;
}

/** A family of servers without the contract whose behaviour needs rules of its own. */
export type ServerFamily = "pydantic-ai";

/**
 * Which family served the interrupt, from the interrupt itself: pydantic-ai's AG-UI
 * adapter (pydantic-ai-slim 2.68.0, ui/ag_ui/_interrupt.py) names every approval
 * interrupt `int-<toolCallId>`, a convention it documents as stable.
 */
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
