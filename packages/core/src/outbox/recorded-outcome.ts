import type { AgUiEvent } from "../protocol";
import { MetadataKey, type RecordedDecision } from "../protocol/extensions";

/**
 * What an entry keeps of a decision the server recorded for someone else:
 * resolved or cancelled, and whether it was approved. The recorded payload is
 * another answer (its edited arguments, its reason) that this client did not
 * write, so it is never stored or broadcast; the kind stays because it is the
 * outcome of the person's own question, which the thread shows them anyway.
 */
export function recordedOutcome(recorded: RecordedDecision): RecordedDecision {
  const { interruptId, status } = recorded;
  if (status === "cancelled") return { interruptId, status };
  const payload = recorded.payload as { approved?: unknown; accepted?: unknown } | null | undefined;
  const approved =
    typeof payload === "object" && payload !== null ? (payload.approved ?? payload.accepted) : undefined;
  return typeof approved === "boolean"
    ? { interruptId, status, payload: { approved } }
    : { interruptId, status };
}

/**
 * A run's event as it may be mirrored to other tabs: an `ALREADY_RESOLVED`
 * error's `x-resume.recordedDecisions` reduced to outcomes. Every other event,
 * and every other part of this one, is passed on as it is.
 */
export function withRecordedOutcomes(event: AgUiEvent): AgUiEvent {
  if (event.type !== "RUN_ERROR") return event;
  const resume = event.metadata?.[MetadataKey.resume];
  if (typeof resume !== "object" || resume === null || !("recordedDecisions" in resume)) return event;
  const recorded = (resume as { recordedDecisions?: unknown }).recordedDecisions;
  const outcomes = Array.isArray(recorded)
    ? recorded.filter(isRecordedDecision).map(recordedOutcome)
    : undefined;
  return {
    ...event,
    metadata: { ...event.metadata, [MetadataKey.resume]: { ...resume, recordedDecisions: outcomes } },
  };
}

function isRecordedDecision(value: unknown): value is RecordedDecision {
  if (typeof value !== "object" || value === null) return false;
  const { interruptId, status } = value as Partial<RecordedDecision>;
  return typeof interruptId === "string" && (status === "resolved" || status === "cancelled");
}
