/**
 * Builders for SSE test fixtures, shared by the Node and the browser tests.
 * Test-only: nothing in the package imports this file.
 */
import { formatEventId, MetadataKey, type StreamCursor } from "../../src/protocol/index";
import type { StreamedEvent } from "../../src/stream/decode-event-frame";
import type { StreamEnd } from "../../src/stream/read-event-stream";

const encoder = new TextEncoder();

/** One SSE frame: `id:` (when a cursor is given), the JSON as `data:`, a blank line. */
export function frame(event: Record<string, unknown>, cursor?: StreamCursor, eol = "\n"): string {
  const withCursor =
    cursor === undefined
      ? event
      : { ...event, metadata: { ...asRecord(event.metadata), [MetadataKey.stream]: cursor } };
  const id = cursor === undefined ? "" : `id: ${formatEventId(cursor)}${eol}`;
  return `${id}data: ${JSON.stringify(withCursor)}${eol}${eol}`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** A complete run as the contract's server frames it: five events, the last terminal. */
export function runFrames(runId = "run-1", eol = "\n"): string {
  const events: Record<string, unknown>[] = [
    { type: "RUN_STARTED", threadId: "thread-1", runId },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    // Multi-byte characters, so byte-boundary splits cut through them.
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "héllo wörld 👋 — ok" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "RUN_FINISHED", threadId: "thread-1", runId, outcome: { type: "success" } },
  ];
  return events.map((event, i) => frame(event, { runId, seq: i + 1 }, eol)).join("");
}

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export interface SseResponseInit {
  /** @default "text/event-stream" */
  readonly contentType?: string | null;
  /** @default 200 */
  readonly status?: number;
  /** Called when the consumer cancels the body. */
  readonly onCancel?: (reason: unknown) => void;
}

/** A Response whose body delivers `chunks` one per pull, then closes. */
export function sseResponse(chunks: Iterable<Uint8Array | string>, init: SseResponseInit = {}): Response {
  const iterator = chunks[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === "string" ? bytes(next.value) : next.value);
    },
    cancel(reason) {
      init.onCancel?.(reason);
    },
  });
  return new Response(body, { status: init.status ?? 200, headers: headers(init) });
}

/** A Response whose body the test drives by hand (enqueue, close, error). */
export function controlledResponse(init: SseResponseInit = {}): {
  response: Response;
  controller: ReadableStreamDefaultController<Uint8Array>;
} {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel(reason) {
      init.onCancel?.(reason);
    },
  });
  if (controller === undefined) throw new Error("ReadableStream did not call start synchronously");
  return {
    response: new Response(body, { status: init.status ?? 200, headers: headers(init) }),
    controller,
  };
}

function headers(init: SseResponseInit): Headers {
  const result = new Headers();
  const contentType = init.contentType === undefined ? "text/event-stream" : init.contentType;
  if (contentType !== null) result.set("content-type", contentType);
  return result;
}

/** Splits `data` at the given byte offsets (ascending). */
export function splitAt(data: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    parts.push(data.slice(start, offset));
    start = offset;
  }
  parts.push(data.slice(start));
  return parts;
}

export interface Collected {
  readonly events: StreamedEvent[];
  readonly end: StreamEnd | undefined;
  readonly error: unknown;
}

/** Drains a reader, keeping what it yielded, how it ended, and the error if it threw. */
export async function collect(
  stream: AsyncGenerator<StreamedEvent, StreamEnd, undefined>,
): Promise<Collected> {
  const events: StreamedEvent[] = [];
  try {
    for (;;) {
      const next = await stream.next();
      if (next.done) return { events, end: next.value, error: undefined };
      events.push(next.value);
    }
  } catch (error) {
    return { events, end: undefined, error };
  }
}
