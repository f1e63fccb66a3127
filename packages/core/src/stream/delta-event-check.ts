/**
 * True only when `value` is a streamed delta (`TEXT_MESSAGE_CONTENT`,
 * `TOOL_CALL_ARGS`, `REASONING_MESSAGE_CONTENT`) that the AG-UI event schema
 * accepts, checked by hand. Deltas are nearly every event of a run and their
 * schema is small, so this spares the schema walk where it costs the most.
 *
 * `false` means "not decided here", never "invalid": the caller then validates
 * with the schema, which gives the precise error. So this may decline what the
 * schema would accept, but must never accept what it refuses: every check below
 * is one of the schema's (see delta-event-check.test.ts, which holds it to that).
 * An accepted value is the schema's output as it is: the schema's objects are
 * loose, so its output is a copy of the same keys and values, minus an own
 * `__proto__` key, which is declined here for that reason.
 */
export function isValidDeltaEvent(event: unknown): boolean {
  if (!isJsonObject(event)) return false;
  const { type, delta, timestamp, metadata, subagentRunId } = event;
  const target =
    type === "TOOL_CALL_ARGS"
      ? event.toolCallId
      : type === "TEXT_MESSAGE_CONTENT" || type === "REASONING_MESSAGE_CONTENT"
        ? event.messageId
        : undefined;
  // Then the fields every event may carry; absent is fine, and JSON has no `undefined`.
  return (
    typeof target === "string" &&
    typeof delta === "string" &&
    (timestamp === undefined || Number.isSafeInteger(timestamp)) &&
    event.rawEvent !== null &&
    (metadata === undefined || isJsonObject(metadata)) &&
    (subagentRunId === undefined || typeof subagentRunId === "string") &&
    !Object.hasOwn(event, "__proto__")
  );
}

/** An object that is not an array: the schema's test for an object. */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
