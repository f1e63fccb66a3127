import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AgUiEvent, StreamCursor } from "../protocol/index";

/** The AG-UI event schema's check, as validate-event.ts runs it. */
export type EventValidator = (json: unknown, cursor: StreamCursor | undefined) => AgUiEvent;

let loading: Promise<EventValidator> | undefined;
let loaded: EventValidator | undefined;

/**
 * The AG-UI event schemas (a third of the client's weight), loaded the first time an event
 * needs them. A failed load is not cached, and fails as `stream_ended`: nothing was judged,
 * so re-attaching reads the event again.
 */
export function loadEventValidator(): Promise<EventValidator> {
  loading ??= import("./validate-event").then(
    (module) => {
      loaded = module.validateEvent;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw new OutboxError(
        ErrorKind.streamEnded,
        "The AG-UI event schemas could not be loaded, so the stream was not read further.",
        { cause: error },
      );
    },
  );
  return loading;
}

/** The validator once loaded, for callers that must decide in the same turn when they can. */
export function loadedEventValidator(): EventValidator | undefined {
  return loaded;
}
