import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import type { DeliverySignal } from "../outcome/delivery-signal";
import { InvalidStreamKind } from "../outcome/delivery-signal";
import { type AgUiEvent, EventType, MetadataKey, type StreamCursor } from "../protocol";
import { parseResumeConflict, parseResumeReplay } from "../protocol/extension-checks";
import { CursorVerdict, createEventLog, type EventLog } from "../stream/event-log";
import { readEventBatches } from "../stream/read-event-stream";
import type { Timers } from "../stream/timers";

export interface PumpOptions {
  /** The cursors already processed; left out for a fresh POST, whose first seq becomes the baseline. */
  readonly log?: EventLog;
  readonly timers: Timers;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  readonly signal?: AbortSignal;
  /** Each fresh event, in order, after de-duplication by cursor. Awaited: persistence happens here. */
  readonly onEvent: (event: AgUiEvent, cursor: StreamCursor | undefined) => void | Promise<void>;
  readonly onRetry?: (retryMs: number) => void;
}

export function terminalSignal(event: AgUiEvent): DeliverySignal | undefined {
  if (event.type === EventType.RUN_FINISHED) {
    const replay = parseResumeReplay(event.metadata?.[MetadataKey.resume]);
    return replay
      ? { type: "run-finished", replayed: true, originalRunId: replay.originalRunId }
      : { type: "run-finished", replayed: false };
  }
  if (event.type === EventType.RUN_ERROR) {
    const conflict = parseResumeConflict(event.metadata?.[MetadataKey.resume] ?? {});
    return {
      type: "run-error",
      message: event.message,
      ...(event.code ? { code: event.code } : {}),
      ...(conflict?.recordedDecisions ? { recordedDecisions: conflict.recordedDecisions } : {}),
      ...(conflict?.claimedBy ? { claimedBy: conflict.claimedBy } : {}),
    };
  }
  return undefined;
}

/** Maps a stream failure to data; anything unexpected is a network failure (the bytes stopped). */
export function failureSignal(error: unknown): DeliverySignal {
  if (!isOutboxError(error)) return { type: "network-error" };
  switch (error.kind) {
    case ErrorKind.streamEnded:
      return { type: "stream-ended" };
    case ErrorKind.streamStalled:
      return { type: "stream-stalled" };
    case ErrorKind.notEventStream:
      return { type: "invalid-stream", kind: InvalidStreamKind.notEventStream, message: error.message };
    case ErrorKind.malformedStream:
      return { type: "invalid-stream", kind: InvalidStreamKind.malformedStream, message: error.message };
    case ErrorKind.invalidJson:
      return { type: "invalid-stream", kind: InvalidStreamKind.invalidJson, message: error.message };
    case ErrorKind.invalidEvent:
      return { type: "invalid-stream", kind: InvalidStreamKind.invalidEvent, message: error.message };
    default:
      return { type: "network-error", message: error.message };
  }
}

/**
 * Reads one run's event stream to its end and says how it ended. Events at or below the log's cursor
 * are dropped (a re-attach replays them); a gap ends the read like a drop.
 */
export async function pumpRunStream(response: Response, options: PumpOptions): Promise<DeliverySignal> {
  const { signal, onEvent } = options;
  try {
    // Chunk by chunk: a generator step per event would cost more than decoding it.
    const batches = readEventBatches(response, {
      timers: options.timers,
      stallTimeoutMs: options.stallTimeoutMs,
      maxEventBytes: options.maxEventBytes,
      ...(signal ? { signal } : {}),
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    });
    let log = options.log;
    for await (const batch of batches) {
      for (const { event, cursor } of batch) {
        // Aborted while an earlier event of the batch was handled: stop before this one.
        if (signal?.aborted) throw signal.reason;
        if (!log) log = createEventLog(cursor ? [{ runId: cursor.runId, seq: cursor.seq - 1 }] : []);
        const judged = log.accept(cursor);
        if (judged === CursorVerdict.duplicate) continue;
        // Leaving the loop closes the body; the caller re-attaches from the log's cursor.
        if (judged === CursorVerdict.gap) return { type: "stream-ended" };
        // Only a returned promise is awaited: a microtask hop per event adds up.
        const handled = onEvent(event, cursor);
        if (handled !== undefined) await handled;
        const terminal = terminalSignal(event);
        if (terminal) return terminal;
      }
    }
    return { type: "stream-ended" };
  } catch (error) {
    return failureSignal(error);
  }
}
