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
  /** From the frame's `id:`; `undefined` without the contract's format (no de-duplication then). */
  readonly cursor: StreamCursor | undefined;
}

export type TerminalEvent = RunFinishedEvent | RunErrorEvent;

export function isTerminalEvent(event: AgUiEvent): event is TerminalEvent {
  return event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
}

/**
 * One SSE frame as a validated event with its cursor, or an `OutboxError` (`invalid_json`,
 * `invalid_event`, `malformed_stream`) naming types, fields and the frame id, never a value.
 * An event outside an ordinary run waits for the schemas (a promise, the first time).
 */
export function decodeEventFrame(frame: EventSourceMessage): StreamedEvent | Promise<StreamedEvent> {
  const cursor = frame.id === undefined ? undefined : parseEventId(frame.id);

  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    throw new OutboxError(ErrorKind.invalidJson, `Event data is not valid JSON${where(cursor)}`, { cause });
  }

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

// A parsed `id:` is a valid cursor, so an object holding its two values is one too.
function echoesCursor(echoed: unknown, cursor: StreamCursor | undefined): boolean {
  return (
    cursor !== undefined && isJsonObject(echoed) && echoed.runId === cursor.runId && echoed.seq === cursor.seq
  );
}
