/**
 * The events a run is mostly made of, each a few string fields: the run's start
 * and end, the streamed deltas, the starts and ends around them, steps, tool
 * results carried as text, custom events. What a field must be, per type, as the
 * AG-UI event schema says it (see simple-event-check.test.ts, which reads the
 * schema to hold this table to it). Types not here (snapshots, state deltas, …)
 * and any variant this table does not cover (a tool result as content parts, a
 * run started with its input, token usage) are left to the schema, which is
 * loaded only then (load-event-validator.ts).
 */
interface EventShape {
  /** Fields that must be strings. */
  readonly strings: readonly string[];
  /** Fields that, when present, must be strings. */
  readonly optionalStrings?: readonly string[];
  /** Fields that, when present, must be one of these strings. */
  readonly optionalChoices?: Readonly<Record<string, readonly string[]>>;
  /** Fields that must be present, with any value. */
  readonly present?: readonly string[];
  /** Fields that, when present, may hold any value but null. */
  readonly optionalNotNull?: readonly string[];
  /** Fields that, when present, must pass their check. */
  readonly optionalChecks?: Readonly<Record<string, (value: unknown) => boolean>>;
  /** Fields this table leaves to the schema: the event is declined when one is present. */
  readonly absent?: readonly string[];
}

const TEXT_ROLES = ["developer", "system", "assistant", "user"] as const;

// A Map, not an object literal: a `type` such as "__proto__" or "toString"
// must find nothing.
export const SIMPLE_EVENT_SHAPES: ReadonlyMap<string, EventShape> = new Map<string, EventShape>([
  [
    "RUN_STARTED",
    {
      strings: ["threadId", "runId"],
      optionalStrings: ["protocolVersion", "parentRunId"],
      absent: ["input"],
    },
  ],
  [
    "RUN_FINISHED",
    {
      strings: ["threadId", "runId"],
      optionalNotNull: ["result"],
      optionalChecks: { outcome: isValidRunOutcome },
      absent: ["usage"],
    },
  ],
  ["RUN_ERROR", { strings: ["message"], optionalStrings: ["code"], absent: ["usage"] }],
  ["TEXT_MESSAGE_CONTENT", { strings: ["messageId", "delta"] }],
  ["REASONING_MESSAGE_CONTENT", { strings: ["messageId", "delta"] }],
  ["TOOL_CALL_ARGS", { strings: ["toolCallId", "delta"] }],
  [
    "TEXT_MESSAGE_START",
    { strings: ["messageId"], optionalStrings: ["name"], optionalChoices: { role: TEXT_ROLES } },
  ],
  ["TEXT_MESSAGE_END", { strings: ["messageId"] }],
  ["TOOL_CALL_START", { strings: ["toolCallId", "toolCallName"], optionalStrings: ["parentMessageId"] }],
  ["TOOL_CALL_END", { strings: ["toolCallId"] }],
  [
    "TOOL_CALL_RESULT",
    { strings: ["messageId", "toolCallId", "content"], optionalChoices: { role: ["tool"] } },
  ],
  ["STEP_STARTED", { strings: ["stepName"] }],
  ["STEP_FINISHED", { strings: ["stepName"] }],
  ["CUSTOM", { strings: ["name"], present: ["value"] }],
]);

/**
 * True only when `value` is one of the events in `SIMPLE_EVENT_SHAPES` and the
 * AG-UI event schema accepts it, checked by hand. These are nearly every event
 * of a run and their schemas are small, so this spares the schema walk where it
 * costs the most.
 *
 * `false` means "not decided here", never "invalid": the caller then validates
 * with the schema, which gives the precise error. So this may decline what the
 * schema would accept, but must never accept what it refuses: every check below
 * is one of the schema's (see simple-event-check.test.ts, which holds it to that).
 * An accepted value is the schema's output as it is: the schema's objects are
 * loose, so its output is a copy of the same keys and values, minus an own
 * `__proto__` key, which is declined here for that reason.
 */
export function isValidSimpleEvent(event: unknown): boolean {
  if (!isJsonObject(event)) return false;
  const { type, timestamp, metadata, subagentRunId } = event;
  const shape = typeof type === "string" ? SIMPLE_EVENT_SHAPES.get(type) : undefined;
  if (shape === undefined) return false;
  for (const field of shape.strings) if (typeof event[field] !== "string") return false;
  if (shape.optionalStrings) {
    for (const field of shape.optionalStrings) {
      const value = event[field];
      if (value !== undefined && typeof value !== "string") return false;
    }
  }
  if (shape.optionalChoices) {
    for (const field in shape.optionalChoices) {
      const value = event[field];
      if (value !== undefined && !(shape.optionalChoices[field] as readonly unknown[]).includes(value)) {
        return false;
      }
    }
  }
  if (shape.present) for (const field of shape.present) if (event[field] === undefined) return false;
  if (shape.optionalNotNull)
    for (const field of shape.optionalNotNull) if (event[field] === null) return false;
  if (shape.optionalChecks) {
    for (const field in shape.optionalChecks) {
      const value = event[field];
      if (value !== undefined && !shape.optionalChecks[field]?.(value)) return false;
    }
  }
  if (shape.absent) for (const field of shape.absent) if (event[field] !== undefined) return false;
  // Then the fields every event may carry; absent is fine, and JSON has no `undefined`.
  return (
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

/**
 * `RUN_FINISHED.outcome` as the schema has it: success (with the frontend tool
 * calls left to answer), cancelled, or the interrupts the run paused on. Objects
 * the schema would copy are declined with an own `__proto__` key, as above.
 */
function isValidRunOutcome(outcome: unknown): boolean {
  if (!isPlainCopy(outcome)) return false;
  switch (outcome.type) {
    case "success": {
      const pending = outcome.pendingToolCallIds;
      return (
        pending === undefined || (Array.isArray(pending) && pending.every((id) => typeof id === "string"))
      );
    }
    case "cancelled":
      return true;
    case "interrupt": {
      const interrupts = outcome.interrupts;
      return Array.isArray(interrupts) && interrupts.length > 0 && interrupts.every(isValidInterrupt);
    }
    default:
      return false;
  }
}

const INTERRUPT_OPTIONAL_STRINGS = ["subagentRunId", "message", "toolCallId", "expiresAt"] as const;

/** One `Interrupt`: an id and a reason, the optional strings, and objects for the schema and metadata. */
function isValidInterrupt(interrupt: unknown): boolean {
  if (!isPlainCopy(interrupt)) return false;
  if (typeof interrupt.id !== "string" || typeof interrupt.reason !== "string") return false;
  for (const field of INTERRUPT_OPTIONAL_STRINGS) {
    const value = interrupt[field];
    if (value !== undefined && typeof value !== "string") return false;
  }
  const { responseSchema, metadata } = interrupt;
  return (
    (responseSchema === undefined || isJsonObject(responseSchema)) &&
    (metadata === undefined || isJsonObject(metadata))
  );
}

/** An object the schema copies key for key: not an array, no own `__proto__`. */
function isPlainCopy(value: unknown): value is Readonly<Record<string, unknown>> {
  return isJsonObject(value) && !Object.hasOwn(value, "__proto__");
}
