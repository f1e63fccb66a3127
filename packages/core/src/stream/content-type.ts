import { EVENT_STREAM_CONTENT_TYPE } from "../protocol/index";

/** The media type of a `Content-Type` value, lower-cased and without parameters. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase();
  return mediaType === "" ? undefined : mediaType;
}

/** True for `text/event-stream`, with or without parameters such as `charset`. */
export function isEventStreamContentType(contentType: string | null): boolean {
  return mediaTypeOf(contentType) === EVENT_STREAM_CONTENT_TYPE;
}
