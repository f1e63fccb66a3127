import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { formatEventId, type StreamCursor } from "../protocol/index";
import { isEventStreamContentType, mediaTypeOf } from "./content-type";
import {
  decodeEventFrame,
  isTerminalEvent,
  type StreamedEvent,
  type TerminalEvent,
} from "./decode-event-frame";
import type { Timers } from "./timers";
import { utf8Length } from "./utf8-length";
import { createStallWatchdog, DEFAULT_STALL_TIMEOUT_MS, type StallWatchdog } from "./watchdog";

/** 1 MiB: far above any real AG-UI event, far below what would hurt a phone. */
export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

// Room for the field lines beside the data, so data exactly at the limit is not refused for its framing.
const FRAMING_ALLOWANCE = 16 * 1024;

export interface ReadEventStreamOptions {
  /** Stops reading and closes the body; the generator rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
  /**
   * Largest `data` of one event, in UTF-8 bytes; a bigger frame ends the stream with
   * `malformed_stream` as soon as the limit is crossed, unbuffered.
   * @default 1_048_576 (1 MiB)
   */
  readonly maxEventBytes?: number;
  /**
   * Silence (ms, keepalives count as bytes) after which the generator rejects with
   * `stream_stalled`; the consumer's time does not count. A `retry:` from the server
   * shortens it to that interval plus 5 s. `Infinity` turns the watchdog off.
   * @default 45_000
   */
  readonly stallTimeoutMs?: number;
  /** @default the platform's `setTimeout` / `clearTimeout` */
  readonly timers?: Timers;
  /** The server's `retry:` (ms), a floor for `nextDelay({serverRetryMs})`. */
  readonly onRetry?: (retryMs: number) => void;
  /** Called with the text of every SSE comment (`: keepalive` and the like). */
  readonly onComment?: (comment: string) => void;
  /** Called on every chunk of bytes received: the stream is alive. */
  readonly onActivity?: () => void;
}

/** How a stream that ended properly ended: with the run's one terminal event. */
export interface StreamEnd {
  readonly terminal: TerminalEvent;
  readonly cursor: StreamCursor | undefined;
}

/**
 * Reads an AG-UI event stream from a fetch `Response`, yielding each validated event
 * with its SSE cursor. It **returns** a {@link StreamEnd} right after yielding the
 * first `RUN_FINISHED` or `RUN_ERROR`; every other ending **throws** an `OutboxError`
 * (`not_event_stream`, `http`, `stream_ended`, `stream_stalled`, `malformed_stream`,
 * `invalid_json`, `invalid_event`), so ending after the terminal event and before it
 * never look alike. An abort rejects with `signal.reason`. Events before a failure
 * are yielded first, whatever the chunking; breaking out closes the body.
 */
export async function* readEventStream(
  response: Response,
  options: ReadEventStreamOptions = {},
): AsyncGenerator<StreamedEvent, StreamEnd, undefined> {
  const batches = readEventBatches(response, options);
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done === true) return next.value;
      for (const streamed of next.value) {
        yield streamed;
        // An abort while the consumer handles one event stops the rest of the batch.
        if (options.signal?.aborted) throw options.signal.reason;
      }
    }
  } finally {
    // Closes the body when the consumer stops early; a no-op once the batches ended.
    await batches.return(undefined as unknown as StreamEnd);
  }
}

/**
 * {@link readEventStream} one network chunk at a time (never an empty batch), for
 * per-chunk work: a generator step per event costs more than decoding the event.
 * An abort while the consumer works through a batch is its own to check.
 */
export async function* readEventBatches(
  response: Response,
  options: ReadEventStreamOptions = {},
): AsyncGenerator<readonly StreamedEvent[], StreamEnd, undefined> {
  const { signal } = options;
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  if (!Number.isSafeInteger(maxEventBytes) || maxEventBytes <= 0) {
    throw new RangeError("maxEventBytes must be a positive integer");
  }
  if (!(stallTimeoutMs > 0)) throw new RangeError("stallTimeoutMs must be positive");

  if (signal?.aborted) {
    discardBody(response, signal.reason);
    throw signal.reason;
  }
  checkResponse(response);
  const body = response.body;
  if (body === null) throw new OutboxError(ErrorKind.notEventStream, "The event stream response has no body");

  // Frames completed by the chunk being fed; `failure` ends the stream after them.
  const frames: EventSourceMessage[] = [];
  let failure: OutboxError | undefined;
  let parserTerminated = false;
  const fail = (error: OutboxError) => {
    failure ??= error;
  };
  const tooLarge = () =>
    new OutboxError(ErrorKind.malformedStream, `An SSE frame exceeded the ${maxEventBytes}-byte limit`);
  const parser = createParser({
    maxBufferSize: maxEventBytes + FRAMING_ALLOWANCE,
    onEvent: (frame) => {
      if (failure !== undefined) return;
      // A frame within one chunk never sat in the parser's buffer. UTF-16 units never
      // outnumber UTF-8 bytes, so the exact count is only needed near the limit.
      const oversized =
        frame.data.length > maxEventBytes ||
        (frame.data.length * 3 > maxEventBytes && utf8Length(frame.data) > maxEventBytes);
      if (oversized) fail(tooLarge());
      else frames.push(frame);
    },
    onRetry: (retryMs) => {
      // Parsed while the countdown is paused: the next read waits under the new bound.
      watchdog?.declare(retryMs);
      options.onRetry?.(retryMs);
    },
    onComment: (comment) => options.onComment?.(comment),
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") {
        // The parser refuses further input from here on.
        parserTerminated = true;
        fail(tooLarge());
      } else if (error.type === "unknown-field") {
        // [spec] says ignore unknown fields, but a line that is no field at all (raw
        // JSON, HTML) would vanish and surface as a misleading EOF. Not echoed: payload.
        fail(
          new OutboxError(
            ErrorKind.malformedStream,
            "Malformed SSE framing: a line is neither a field (data, event, id, retry) nor a comment",
          ),
        );
      }
      // [spec] an invalid `retry:` value is ignored.
    },
  });

  // One signal for both reasons to stop reading: the caller's abort and a stall.
  const stop = new AbortController();
  const forwardAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });
  const reader = body.getReader();
  // Cancelling the reader settles a pending `read()`: that unblocks a silent network.
  const cancelReader = () => reader.cancel(stop.signal.reason).catch(ignore);
  stop.signal.addEventListener("abort", cancelReader, { once: true });
  // Armed only while a read is pending, so decoding and the consumer never count as
  // silence: two timer calls per chunk instead of per event.
  const watchdog: StallWatchdog | undefined = Number.isFinite(stallTimeoutMs)
    ? createStallWatchdog({
        timeoutMs: stallTimeoutMs,
        ...(options.timers === undefined ? {} : { timers: options.timers }),
        onStall: (error) => stop.abort(error),
      })
    : undefined;

  const decoder = new TextDecoder();
  // [spec] a lone CR ends a line, but the parser holds a trailing CR back waiting for
  // LF, which may never come: complete it now and drop a LF opening the next chunk.
  let swallowLeadingLf = false;
  const feed = (text: string) => {
    const rest = swallowLeadingLf && text.startsWith("\n") ? text.slice(1) : text;
    if (text !== "") swallowLeadingLf = false;
    if (rest === "" || parserTerminated) return;
    parser.feed(rest);
    if (rest.endsWith("\r") && !parserTerminated) {
      parser.feed("\n");
      swallowLeadingLf = true;
    }
  };
  let lastCursor: StreamCursor | undefined;
  let closed = false;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        watchdog?.touch();
        result = await reader.read();
      } catch (cause) {
        if (stop.signal.aborted) throw stop.signal.reason;
        closed = true;
        throw new OutboxError(ErrorKind.streamEnded, `The connection dropped ${before(lastCursor)}`, {
          cause,
        });
      }
      watchdog?.pause();
      if (stop.signal.aborted) throw stop.signal.reason;

      if (result.done) {
        closed = true;
        // [spec] an event without its closing blank line at EOF is discarded.
        feed(decoder.decode());
      } else {
        options.onActivity?.();
        feed(decoder.decode(result.value, { stream: true }));
      }

      const batch: StreamedEvent[] = [];
      let end: StreamEnd | undefined;
      let decodeFailure: unknown;
      for (const frame of frames) {
        let streamed: StreamedEvent;
        try {
          const decoded = decodeEventFrame(frame);
          // Only an event outside the ordinary run's waits, the first time, for the schemas.
          streamed = decoded instanceof Promise ? await decoded : decoded;
        } catch (error) {
          decodeFailure = error;
          break;
        }
        batch.push(streamed);
        if (streamed.cursor !== undefined) lastCursor = streamed.cursor;
        if (isTerminalEvent(streamed.event)) {
          end = { terminal: streamed.event, cursor: streamed.cursor };
          break;
        }
      }
      frames.length = 0;
      // Waiting for the schemas may have outlasted the caller's interest.
      if (stop.signal.aborted) throw stop.signal.reason;

      if (batch.length > 0) {
        yield batch;
        if (stop.signal.aborted) throw stop.signal.reason;
      }
      if (end !== undefined) return end;
      if (decodeFailure !== undefined) throw decodeFailure;
      if (failure !== undefined) throw failure;
      if (result.done) {
        throw new OutboxError(ErrorKind.streamEnded, `The stream ended ${before(lastCursor)}`);
      }
    }
  } finally {
    watchdog?.stop();
    signal?.removeEventListener("abort", forwardAbort);
    stop.signal.removeEventListener("abort", cancelReader);
    if (!closed) reader.cancel().catch(ignore);
  }
}

function checkResponse(response: Response): void {
  if (!response.ok) {
    discardBody(response);
    throw new OutboxError(ErrorKind.http, `Expected a 2xx event stream, got HTTP ${response.status}`, {
      status: response.status,
    });
  }
  const contentType = response.headers.get("content-type");
  if (!isEventStreamContentType(contentType)) {
    discardBody(response);
    const mediaType = mediaTypeOf(contentType);
    const shown =
      mediaType === undefined
        ? "no content type"
        : /^[\w.+-]+\/[\w.+-]+$/.test(mediaType)
          ? mediaType
          : "(unprintable)";
    throw new OutboxError(ErrorKind.notEventStream, `Expected text/event-stream, got ${shown}`, {
      status: response.status,
    });
  }
}

/** Frees the connection behind a response we will not read. */
function discardBody(response: Response, reason?: unknown): void {
  if (response.body !== null && !response.bodyUsed) response.body.cancel(reason).catch(ignore);
}

function before(cursor: StreamCursor | undefined): string {
  const at = cursor === undefined ? "" : ` (last frame ${formatEventId(cursor)})`;
  return `before RUN_FINISHED or RUN_ERROR${at}`;
}

function ignore(): void {}
