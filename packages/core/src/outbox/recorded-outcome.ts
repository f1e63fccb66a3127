import type { DeliverySignal } from "../outcome/delivery-signal";
import type { AgUiEvent } from "../protocol";
import { MetadataKey, type RecordedDecision } from "../protocol/extensions";

/**
 * What is kept of a decision the server recorded for someone else: its kind and whether approved.
 * The payload is another person's answer, so it is never stored or broadcast.
 */
export function recordedOutcome({ interruptId, status, payload }: RecordedDecision): RecordedDecision {
  const said = payload as { approved?: unknown; accepted?: unknown } | null | undefined;
  const approved = status === "resolved" ? (said?.approved ?? said?.accepted) : undefined;
  return typeof approved === "boolean"
    ? { interruptId, status, payload: { approved } }
    : { interruptId, status };
}

/** An event with `ALREADY_RESOLVED`'s recorded decisions reduced to outcomes, before anyone sees it. */
export function withRecordedOutcomes(event: AgUiEvent): AgUiEvent {
  const resume =
    event.type === "RUN_ERROR"
      ? (event.metadata?.[MetadataKey.resume] as { recordedDecisions?: unknown } | undefined)
      : undefined;
  const recorded = resume?.recordedDecisions;
  if (!Array.isArray(recorded)) return event;
  // An element that is not a decision stays one that is not: the conflict's check refuses it.
  const outcomes = recorded.map((one: RecordedDecision | null) =>
    recordedOutcome(one ?? ({} as RecordedDecision)),
  );
  return {
    ...event,
    metadata: { ...event.metadata, [MetadataKey.resume]: { ...resume, recordedDecisions: outcomes } },
  };
}

/** A delivery's signal with the decisions an `ALREADY_RESOLVED` recorded reduced to outcomes. */
export function outcomesOnly(signal: DeliverySignal): DeliverySignal {
  return signal.type === "run-error" && signal.recordedDecisions
    ? { ...signal, recordedDecisions: signal.recordedDecisions.map(recordedOutcome) }
    : signal;
}
