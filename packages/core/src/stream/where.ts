import { formatEventId, type StreamCursor } from "../protocol/index";

/** Where an error happened, for its message: built only when one is thrown. */
export function where(cursor: StreamCursor | undefined): string {
  return cursor === undefined ? "" : ` (frame ${formatEventId(cursor)})`;
}
