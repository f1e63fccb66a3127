import {
  type AgUiEvent,
  isKnownOutcomeCode,
  MetadataKey,
  OutcomeCode,
  type ResumeConflict,
} from "@agui-outbox/core/protocol";

// How a run ends in error. Kept apart from the pump: the claim hooks and hydration
// end runs this way too, and the pump's options name them.

/**
 * What a thrown error tells the client. An agent or hook may fail with a
 * contract code (e.g. AGENT_MODEL_CALL_FAILED); any other error's code (a
 * driver's, say) means nothing to a client, so it is a retryable UNAVAILABLE
 * with `fallback` as its message.
 */
export function contractFailure(error: unknown, fallback: string): { code: string; message: string } {
  const failure = error as { code?: unknown; message?: unknown } | null;
  const code = failure?.code;
  if (typeof code !== "string" || !isKnownOutcomeCode(code))
    return { code: OutcomeCode.UNAVAILABLE, message: fallback };
  return { code, message: typeof failure?.message === "string" ? failure.message : fallback };
}

/** A `RUN_ERROR` event; a conflict travels in its `x-resume` metadata. */
export function runError(code: string, message: string, conflict?: ResumeConflict): AgUiEvent {
  return (
    conflict === undefined
      ? { type: "RUN_ERROR", code, message }
      : { type: "RUN_ERROR", code, message, metadata: { [MetadataKey.resume]: conflict } }
  ) as AgUiEvent;
}
