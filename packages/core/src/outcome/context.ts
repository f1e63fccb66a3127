import type { Decision, OutboxEntry } from "../outbox/entry";
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
}

const IN_FLIGHT: ReadonlySet<string> = new Set(["sending", "streaming"]);

/** Derives the classifier context from an entry, counting an in-flight attempt as the current one. */
export function outcomeContext(entry: OutboxEntry, serverKind: ServerKind): OutcomeContext {
  const earlierAttempts = IN_FLIGHT.has(entry.state) ? entry.attempts - 1 : entry.attempts;
  return {
    serverKind,
    sentBefore: earlierAttempts > 0,
    acked: entry.cursor.acked,
    decision: entry.decision.kind,
  };
}
