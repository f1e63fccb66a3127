import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { AgUiEvent, StreamCursor } from "../protocol/index";

/** The AG-UI event schema's check, as validate-event.ts runs it. */
export type EventValidator = (json: unknown, cursor: StreamCursor | undefined) => AgUiEvent;

let loading: Promise<EventValidator> | undefined;
let loaded: EventValidator | undefined;

/**
 * The AG-UI event schemas, loaded the first time an event needs them: the events
 * an ordinary run is made of are checked by hand (simple-event-check.ts), so the
 * schemas (a third of the client's weight) are a separate chunk in the app's build
 * that most pages never fetch. A failed load is not cached: the next call tries
 * again. It fails as `stream_ended`, as a dropped connection would: nothing was
 * judged, and re-attaching from the last cursor reads the event again.
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
