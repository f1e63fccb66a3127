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
  const where = cursor === undefined ? "" : ` (frame ${formatEventId(cursor)})`;

  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    throw new OutboxError(ErrorKind.invalidJson, `Event data is not valid JSON${where}`, { cause });
  }

  const result = EventMiniSchema.safeParse(json);
  if (!result.success) {
    const type = typeOf(json);
    if (type === undefined) {
      throw new OutboxError(ErrorKind.invalidEvent, `Event data has no string "type"${where}`);
    }
    const name = printableTypeName.test(type) ? type : "(unprintable)";
    if (!knownEventTypes.has(type)) {
      throw new OutboxError(ErrorKind.invalidEvent, `Unknown AG-UI event type ${name}${where}`);
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
      `${name} event does not match the AG-UI schema (fields: ${fields.join(", ")})${where}`,
    );
  }

  const event = result.data;
  const echoed = event.metadata?.[MetadataKey.stream];
  if (echoed !== undefined) {
    const parsed = StreamCursorSchema.safeParse(echoed);
    if (!parsed.success) {
      throw new OutboxError(ErrorKind.malformedStream, `metadata["x-stream"] is not a stream cursor${where}`);
    }
    if (cursor === undefined || cursor.runId !== parsed.data.runId || cursor.seq !== parsed.data.seq) {
      throw new OutboxError(
        ErrorKind.malformedStream,
        `The frame id and metadata["x-stream"] disagree${where || " (frame without a valid id)"}`,
      );
    }
  }
  return { event, cursor };
}

function typeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const type: unknown = (value as { readonly type?: unknown }).type;
  return typeof type === "string" ? type : undefined;
}
