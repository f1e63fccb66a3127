import type { EventSourceMessage } from "eventsource-parser";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import {
  type AgUiEvent,
  EventMiniSchema,
  EventType,
  formatEventId,
  MetadataKey,
  parseEventId,
  type RunErrorEvent,
  type RunFinishedEvent,
  type StreamCursor,
  StreamCursorSchema,
} from "../protocol/index";
import { isJsonObject, isValidSimpleEvent } from "./simple-event-check";

/** One validated AG-UI event and the cursor of the SSE frame that carried it. */
export interface StreamedEvent {
  readonly event: AgUiEvent;
  /**
   * `<runId>:<seq>` from the frame's `id:` line. `undefined` when the frame has
   * no id or one that is not in the contract's format (servers without the
   * recovery contract): such events cannot be de-duplicated or re-attached to.
   */
  readonly cursor: StreamCursor | undefined;
}

export type TerminalEvent = RunFinishedEvent | RunErrorEvent;

/** `RUN_FINISHED` and `RUN_ERROR` end a run; every run has exactly one of them. */
export function isTerminalEvent(event: AgUiEvent): event is TerminalEvent {
  return event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
}

const knownEventTypes: ReadonlySet<string> = new Set(Object.values(EventType));

// Type names come from the server; anything that does not look like one is not
// echoed, so a payload that landed in `type` never reaches a message or a log.
const printableTypeName = /^[A-Z][A-Z0-9_]{0,63}$/;
const printableFieldName = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Turns one parsed SSE frame into a validated event with its cursor: the
 * boundary where wire data becomes typed data. Throws an `OutboxError`:
 * - `invalid_json` when `data` is not JSON,
 * - `invalid_event` for an unknown `type` or a known type with the wrong shape,
 * - `malformed_stream` when `metadata["x-stream"]` is not a cursor or disagrees with `id:`.
 *
 * Messages name the event type, the offending top-level fields and the frame id,
 * never a value from the payload.
 */
export function decodeEventFrame(frame: EventSourceMessage): StreamedEvent {
  const cursor = frame.id === undefined ? undefined : parseEventId(frame.id);

  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    throw new OutboxError(ErrorKind.invalidJson, `Event data is not valid JSON${where(cursor)}`, { cause });
  }

  // The simple events, most of a stream, are checked by hand: exactly as strict, and
  // JSON.parse already built the object the schema would copy.
  const event = isValidSimpleEvent(json) ? (json as AgUiEvent) : validateEvent(json, cursor);
  const echoed = event.metadata?.[MetadataKey.stream];
  if (echoed !== undefined && !echoesCursor(echoed, cursor)) {
    const parsed = StreamCursorSchema.safeParse(echoed);
    if (!parsed.success) {
      throw new OutboxError(
        ErrorKind.malformedStream,
        `metadata["x-stream"] is not a stream cursor${where(cursor)}`,
      );
    }
    throw new OutboxError(
      ErrorKind.malformedStream,
      `The frame id and metadata["x-stream"] disagree${where(cursor) || " (frame without a valid id)"}`,
    );
  }
  return { event, cursor };
}

/**
 * The agreeing case without the schema: a parsed `id:` has a non-empty runId and
 * a positive safe-integer seq, so an object holding the same two values is a
 * valid cursor. Anything else goes to the schema, for the precise error.
 */
function echoesCursor(echoed: unknown, cursor: StreamCursor | undefined): boolean {
  return (
    cursor !== undefined && isJsonObject(echoed) && echoed.runId === cursor.runId && echoed.seq === cursor.seq
  );
}

/** Validates with the AG-UI event schema; throws `invalid_event` naming the type and fields. */
function validateEvent(json: unknown, cursor: StreamCursor | undefined): AgUiEvent {
  const result = EventMiniSchema.safeParse(json);
  if (result.success) return result.data;
  const type = typeOf(json);
  if (type === undefined) {
    throw new OutboxError(ErrorKind.invalidEvent, `Event data has no string "type"${where(cursor)}`);
  }
  const name = printableTypeName.test(type) ? type : "(unprintable)";
  if (!knownEventTypes.has(type)) {
    throw new OutboxError(ErrorKind.invalidEvent, `Unknown AG-UI event type ${name}${where(cursor)}`);
  }
  const fields = [
    ...new Set(
      result.error.issues.map((issue) => {
        const top = issue.path[0];
        return typeof top === "string" && printableFieldName.test(top) ? top : "(event)";
      }),
    ),
  ];
  throw new OutboxError(
    ErrorKind.invalidEvent,
    `${name} event does not match the AG-UI schema (fields: ${fields.join(", ")})${where(cursor)}`,
  );
}

/** Where an error happened, for its message: built only when one is thrown. */
function where(cursor: StreamCursor | undefined): string {
  return cursor === undefined ? "" : ` (frame ${formatEventId(cursor)})`;
}

function typeOf(value: unknown): string | undefined {
  const type = isJsonObject(value) ? value.type : undefined;
  return typeof type === "string" ? type : undefined;
}
