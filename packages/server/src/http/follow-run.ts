import { formatEventId } from "@agui-outbox/core/protocol";
import type { ContractStore } from "../store/contract-store";
import { isTerminalEvent } from "../store/records";
import type { SseStream } from "./sse-stream";

/**
 * Streams a run's log from after `afterSeq` until the run's current attempt
 * ends, whichever instance writes it: every append wakes the reader (on
 * Postgres through `NOTIFY`), and a slow poll covers a lost notification.
 * Each frame goes out once, in seq order; closing the reader never touches the run.
 */
export async function followRun(
  store: ContractStore,
  runId: string,
  afterSeq: number,
  stream: SseStream,
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
        const frames = await store.frames(runId, delivered);
        for (const frame of frames) {
          stream.writeFrame(formatEventId({ runId, seq: frame.seq }), frame.event);
          delivered = frame.seq;
        }
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

  const wake = () => {
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
