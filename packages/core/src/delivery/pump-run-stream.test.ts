import { expect, test } from "vitest";
import { bytes, controlledResponse, runFrames, sseResponse } from "../../test/support/sse-fixtures";
import type { AgUiEvent } from "../protocol";
import { createEventLog } from "../stream/event-log";
import { defaultTimers } from "../stream/timers";
import { type PumpOptions, pumpRunStream } from "./pump-run-stream";

const run = runFrames();

function options(onEvent: PumpOptions["onEvent"], extra: Partial<PumpOptions> = {}): PumpOptions {
  return { timers: defaultTimers, stallTimeoutMs: 45_000, maxEventBytes: 1024 * 1024, onEvent, ...extra };
}

test("every event of a chunk is handed over in order, an async handler finishing before the next", async () => {
  const log: string[] = [];
  const signal = await pumpRunStream(
    sseResponse([run]),
    options(async (event) => {
      log.push(`start ${event.type}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(`end ${event.type}`);
    }),
  );
  expect(signal).toEqual({ type: "run-finished", replayed: false });
  const types = [
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ];
  expect(log).toEqual(types.flatMap((type) => [`start ${type}`, `end ${type}`]));
});

test("events at or below the log's cursor are dropped; a gap ends the read", async () => {
  const seen: (number | undefined)[] = [];
  const replayed = await pumpRunStream(
    sseResponse([run]),
    options((_, cursor) => void seen.push(cursor?.seq), {
      log: createEventLog([{ runId: "run-1", seq: 3 }]),
    }),
  );
  expect(replayed.type).toBe("run-finished");
  expect(seen).toEqual([4, 5]);

  seen.length = 0;
  const [first = "", , third = ""] = run.split(/(?<=\n\n)/);
  const gap = await pumpRunStream(
    sseResponse([first + third]),
    options((_, cursor) => void seen.push(cursor?.seq)),
  );
  expect(gap).toEqual({ type: "stream-ended" });
  expect(seen).toEqual([1]);
});

test("an abort while one event of a chunk is handled stops the events after it", async () => {
  const abort = new AbortController();
  const { response, controller } = controlledResponse();
  controller.enqueue(bytes(run)); // one chunk, body left open
  const seen: AgUiEvent["type"][] = [];
  const signal = await pumpRunStream(
    response,
    options(
      (event) => {
        seen.push(event.type);
        abort.abort(new Error("navigated away"));
      },
      { signal: abort.signal },
    ),
  );
  expect(seen).toEqual(["RUN_STARTED"]);
  expect(signal.type).toBe("network-error");
});
