import { ErrorKind, OutboxError } from "@agui-outbox/core";
import {
  type AgUiEvent,
  EventMiniSchema,
  MetadataKey,
  type StreamCursor,
  StreamCursorSchema,
} from "@agui-outbox/core/protocol";

export interface BackgroundEvent {
  readonly event: AgUiEvent;
  /** From `metadata["x-stream"]`; undefined when the server sent none (nothing to de-duplicate by). */
  readonly cursor: StreamCursor | undefined;
}

/**
 * Validates the events of a background response at the boundary. Throws an
 * `OutboxError` (`invalid_event`, `malformed_stream`) naming the position,
 * never a value from the payload.
 */
export function decodeBackgroundEvents(raw: readonly Record<string, unknown>[]): BackgroundEvent[] {
  return raw.map((candidate, index) => {
    const parsed = EventMiniSchema.safeParse(candidate);
    if (!parsed.success) {
      throw new OutboxError(ErrorKind.invalidEvent, `Background event #${index} is not a valid AG-UI event.`);
    }
    const event = parsed.data;
    const echoed = event.metadata?.[MetadataKey.stream];
    if (echoed === undefined) return { event, cursor: undefined };
    const cursor = StreamCursorSchema.safeParse(echoed);
    if (!cursor.success) {
      throw new OutboxError(
        ErrorKind.malformedStream,
        `Background event #${index} has a metadata["x-stream"] that is not a stream cursor.`,
      );
    }
    return { event, cursor: cursor.data };
  });
}
