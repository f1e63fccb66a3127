import type { EventSourceMessage } from "eventsource-parser";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { parseStreamCursor } from "../protocol/extension-checks";
import {
  type AgUiEvent,
  EventType,
  MetadataKey,
  parseEventId,
  type RunErrorEvent,
  type RunFinishedEvent,
  type StreamCursor,
} from "../protocol/index";
import { loadEventValidator } from "./load-event-validator";
import { isJsonObject, isValidSimpleEvent } from "./simple-event-check";
import { where } from "./where";

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

/**
 * Turns one parsed SSE frame into a validated event with its cursor: the
 * boundary where wire data becomes typed data. Throws (or rejects with) an `OutboxError`:
 * - `invalid_json` when `data` is not JSON,
 * - `invalid_event` for an unknown `type` or a known type with the wrong shape,
 * - `malformed_stream` when `metadata["x-stream"]` is not a cursor or disagrees with `id:`.
 *
 * Messages name the event type, the offending top-level fields and the frame id,
 * never a value from the payload.
 *
 * The events an ordinary run is made of are checked by hand and decoded at once;
 * any other event waits for the AG-UI schemas, loaded on first need
 * (load-event-validator.ts), so the result is then a promise. Either way the
 * verdict on a frame is the schema's.
 */
export function decodeEventFrame(frame: EventSourceMessage): StreamedEvent | Promise<StreamedEvent> {
  const cursor = frame.id === undefined ? undefined : parseEventId(frame.id);

  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    throw new OutboxError(ErrorKind.invalidJson, `Event data is not valid JSON${where(cursor)}`, { cause });
  }

  // The simple events, most of a stream, are checked by hand: exactly as strict, and
  // JSON.parse already built the object the schema would copy.
  if (isValidSimpleEvent(json)) return withCursor(json as AgUiEvent, cursor);
  return loadEventValidator().then((validateEvent) => withCursor(validateEvent(json, cursor), cursor));
}

/** The event with its frame's cursor, once `metadata["x-stream"]`, if any, agrees with it. */
function withCursor(event: AgUiEvent, cursor: StreamCursor | undefined): StreamedEvent {
  const echoed = event.metadata?.[MetadataKey.stream];
  if (echoed !== undefined && !echoesCursor(echoed, cursor)) {
    if (parseStreamCursor(echoed) === undefined) {
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
 * valid cursor. Anything else is checked as the cursor schema would, for the precise error.
 */
function echoesCursor(echoed: unknown, cursor: StreamCursor | undefined): boolean {
  return (
    cursor !== undefined && isJsonObject(echoed) && echoed.runId === cursor.runId && echoed.seq === cursor.seq
  );
}
