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

// Room for the field names, `id:` and `event:` lines that sit in the parser's
// buffer next to the data itself, so a frame whose data is exactly at the limit
// is not refused for its framing.
const FRAMING_ALLOWANCE = 16 * 1024;

export interface ReadEventStreamOptions {
  /**
   * Stops reading and closes the body. The generator then rejects with
   * `signal.reason`.
   */
  readonly signal?: AbortSignal;
  /**
   * Largest `data` of one event, in UTF-8 bytes. A bigger frame ends the stream
   * with `malformed_stream` as soon as the limit is crossed, without waiting for
   * (or buffering) the rest of it.
   * @default 1_048_576 (1 MiB)
   */
  readonly maxEventBytes?: number;
  /**
   * Silence, in milliseconds, after which the stream is declared stalled and the
   * generator rejects with `stream_stalled`. Every chunk of bytes (keepalive
   * comments included) restarts the countdown; time the consumer spends between
   * two events does not count. A `retry:` the server sends shortens it to that
   * interval plus 5 s, never lengthens it. `Infinity` turns the watchdog off.
   * @default 45_000
   */
  readonly stallTimeoutMs?: number;
  /**
   * Timer functions for the stall watchdog.
   * @default the platform's `setTimeout` / `clearTimeout`
   */
  readonly timers?: Timers;
  /**
   * Called with the server's `retry:` value (milliseconds) as soon as it is
   * parsed; feed it to `nextDelay({serverRetryMs})` as a floor for the backoff.
   */
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
 * Reads an AG-UI event stream from a fetch `Response`, yielding each validated
 * event with its SSE cursor.
 *
 * ```ts
 * const stream = readEventStream(response, { signal, onRetry: (ms) => (serverRetryMs = ms) });
 * for await (const { event, cursor } of stream) {
 *   if (log.accept(cursor) === CursorVerdict.fresh) apply(event); // see createEventLog
 * }
 * // reaching here means RUN_FINISHED or RUN_ERROR was seen (and yielded last)
 * ```
 *
 * The generator **returns** (with a {@link StreamEnd}) right after yielding the
 * first `RUN_FINISHED` or `RUN_ERROR`, and closes the body. Every other ending
 * **throws** an `OutboxError`, so "ended after the terminal event" and "ended
 * before it" can never be confused:
 * - `not_event_stream`: the content type is not `text/event-stream` (an HTML
 *   error page served with 200, say) or there is no body;
 * - `http`: the response is not 2xx (callers normally handle those first);
 * - `stream_ended`: EOF, or the connection dropped, before a terminal event;
 * - `stream_stalled`: no byte for `stallTimeoutMs`;
 * - `malformed_stream`: a frame over `maxEventBytes`, a line that is not an SSE
 *   field, or an `id:` that disagrees with `metadata["x-stream"]`;
 * - `invalid_json`, `invalid_event`: see {@link decodeEventFrame}.
 * An abort through `signal` rejects with `signal.reason` instead.
 *
 * Events before a failure are yielded first, in order, whatever the chunking.
 * Breaking out of the loop closes the body.
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
        // A batch is decoded before its first event is yielded; an abort while
        // the consumer handles one event still stops the ones after it.
        if (options.signal?.aborted) throw options.signal.reason;
      }
    }
  } finally {
    // Closes the body when the consumer stops early; a no-op once the batches ended.
    await batches.return(undefined as unknown as StreamEnd);
  }
}

/**
 * {@link readEventStream} one network chunk at a time: each batch holds the
 * validated events whose frames completed in one chunk of bytes, in order,
 * never empty. Same endings, same errors, same options. For consumers that do
 * per-chunk work (one store update for a whole chunk, say): a generator step
 * per event costs more than the event's own decoding.
 *
 * A batch is complete before it is yielded: an abort through `signal` while
 * the consumer works through one is the consumer's to check between events.
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
      // A frame that arrived within one chunk never sat in the parser's buffer,
      // so the buffer limit alone would let it through. UTF-16 units never
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
        // [spec] says ignore unknown fields. The contract's servers never send any,
        // and a line that is no field at all (raw JSON, an HTML fragment) would
        // otherwise vanish silently and surface later as a misleading EOF. The
        // line is not echoed: it may hold payload.
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
  // Cancelling the reader settles a pending `read()`, which is what unblocks the
  // loop when the network has gone silent.
  const cancelReader = () => reader.cancel(stop.signal.reason).catch(ignore);
  stop.signal.addEventListener("abort", cancelReader, { once: true });
  // The countdown runs only while a read is pending: it is armed before each
  // read and paused when bytes arrive, so the time spent decoding and in the
  // consumer never counts as silence. That is the same as restarting it on
  // every chunk and pausing it around every event, for two timer calls per
  // chunk instead of two per event.
  const watchdog: StallWatchdog | undefined = Number.isFinite(stallTimeoutMs)
    ? createStallWatchdog({
        timeoutMs: stallTimeoutMs,
        ...(options.timers === undefined ? {} : { timers: options.timers }),
        onStall: (error) => stop.abort(error),
      })
    : undefined;

  const decoder = new TextDecoder();
  // [spec] a lone CR ends a line. The parser holds back a trailing CR until it
  // sees whether LF follows, which would leave a complete event (a terminal one,
  // say) waiting on bytes that may never come. So a trailing CR is completed
  // here at once, and a LF opening the next chunk, its other half, is dropped.
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
        // [spec] an event without its closing blank line at EOF is discarded;
        // flushing the decoder only turns a truncated character into U+FFFD.
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
