import { type AgUiEvent, MetadataKey, OutcomeCode } from "@agui-outbox/core/protocol";
import { type Occurrence, OccurrenceState } from "./records";

/**
 * What a claim that ends without a commit leaves behind (a rollback, or a lease
 * that lapsed): PENDING keeping any stored result and the decision it belongs
 * to, or INDETERMINATE when a tool was executing and left no result — it may
 * or may not have run, so it is never run again.
 */
export function releasedState(occurrence: Occurrence): Pick<Occurrence, "state" | "decision" | "claim"> {
  if (occurrence.state === OccurrenceState.indeterminate) {
    return { state: occurrence.state, decision: occurrence.decision, claim: null };
  }
  if (occurrence.state === OccurrenceState.executing && occurrence.result === null) {
    return { state: OccurrenceState.indeterminate, decision: occurrence.decision, claim: null };
  }
  return {
    state: OccurrenceState.pending,
    decision: occurrence.result === null ? null : occurrence.decision,
    claim: null,
  };
}

/** The terminal event a run gets when the instance running it stopped renewing its lease. */
export const ORPHANED_RUN_ERROR = {
  type: "RUN_ERROR",
  code: OutcomeCode.UNAVAILABLE,
  message: "the server running this run stopped; retry with the same Idempotency-Key",
} as AgUiEvent;

/** The event as stored and sent: its cursor in `metadata["x-stream"]`. */
export function stampCursor(event: AgUiEvent, runId: string, seq: number): AgUiEvent {
  return {
    ...event,
    metadata: { ...(event.metadata ?? {}), [MetadataKey.stream]: { runId, seq } },
  } as AgUiEvent;
}
