/**
 * The events a run is mostly made of, as the AG-UI schema shapes them (its test holds
 * this table to the schema). Anything else goes to the schema, loaded only then.
 */
interface EventShape {
  readonly strings: readonly string[];
  readonly optionalStrings?: readonly string[];
  readonly optionalChoices?: Readonly<Record<string, readonly string[]>>;
  /** Present, with any value. */
  readonly present?: readonly string[];
  readonly optionalNotNull?: readonly string[];
  readonly optionalChecks?: Readonly<Record<string, (value: unknown) => boolean>>;
  /** Left to the schema: the event is declined when one is present. */
  readonly absent?: readonly string[];
}

const TEXT_ROLES = ["developer", "system", "assistant", "user"] as const;

// A Map: a `type` such as "__proto__" must find nothing.
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
 * True only when the schema would accept the event as it is; `false` means "ask the
 * schema", never "invalid". It may decline what the schema accepts, never the reverse;
 * an own `__proto__` is declined since the schema's copy would drop it.
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
  // The fields every event may carry.
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

/** `RUN_FINISHED.outcome`: success, cancelled, or the interrupts the run paused on. */
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

function isPlainCopy(value: unknown): value is Readonly<Record<string, unknown>> {
  return isJsonObject(value) && !Object.hasOwn(value, "__proto__");
}
