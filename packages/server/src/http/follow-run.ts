import { formatEventId } from "@agui-outbox/core/protocol";
import type { ContractStore } from "../store/contract-store";
import { isTerminalEvent, type StoredFrame } from "../store/records";
import type { SseStream } from "./sse-stream";

/**
 * Streams a run's log from after `afterSeq` until the run's current attempt
 * ends, whichever instance writes it: every append wakes the reader (on
 * Postgres through `NOTIFY`), and a slow poll covers a lost notification.
 * Frames the store hands over with a wake go out as they are when they follow
 * on; otherwise, and to see the run end, the log is read. Each frame goes out
 * once, in seq order; closing the reader never touches the run.
 */
export async function followRun(
  store: ContractStore,
  runId: string,
  afterSeq: number,
  stream: Pick<SseStream, "closed" | "writeFrame" | "end" | "drop" | "onClose">,
  pollMs: number,
): Promise<void> {
  let delivered = afterSeq;
  let reading = false;
  let again = false;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    stopWatching();
    clearInterval(poll);
    stream.end();
  };

  /** Writes the frames after `delivered` that follow on from it; false at a gap. */
  const write = (frames: readonly StoredFrame[]): boolean => {
    for (const frame of frames) {
      if (frame.seq <= delivered) continue;
      if (frame.seq !== delivered + 1) return false;
      stream.writeFrame(formatEventId({ runId, seq: frame.seq }), frame.event);
      delivered = frame.seq;
    }
    return true;
  };

  const pump = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        if (stream.closed || finished) return;
        // Frames handed over meanwhile may have gone out already: `write` skips them.
        const frames = await store.frames(runId, delivered);
        write(frames);
        const last = frames.at(-1);
        // A terminal frame ends the stream only if it is the run's last: a retry may already continue the log.
        if (last === undefined || isTerminalEvent(last.event)) {
          const run = await store.run(runId);
          if (run === undefined || (run.terminal !== null && delivered >= run.lastSeq)) {
            finish();
            return;
          }
        }
      } while (again);
    } finally {
      reading = false;
    }
  };

  const wake = (frames?: readonly StoredFrame[]) => {
    const last = frames?.at(-1);
    // Handed over and following on: nothing to read, unless the run may have ended.
    const followed = last !== undefined && !finished && write(frames ?? []);
    if (followed && !isTerminalEvent(last.event)) return;
    pump().catch(() => stream.drop());
  };
  const stopWatching = await store.watch(runId, wake);
  const poll = setInterval(wake, pollMs);
  poll.unref?.();
  stream.onClose(() => {
    stopWatching();
    clearInterval(poll);
  });
  await pump();
}
