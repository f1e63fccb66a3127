import { expect, test } from "vitest";
import { collect, runFrames, sseResponse } from "../../test/support/sse-fixtures";
import { CursorVerdict, createEventLog } from "./event-log";
import { readEventStream } from "./read-event-stream";

test("a run's events are fresh once, in order; replays are duplicates", () => {
  const log = createEventLog();
  expect(log.accept({ runId: "r", seq: 1 })).toBe(CursorVerdict.fresh);
  expect(log.accept({ runId: "r", seq: 2 })).toBe(CursorVerdict.fresh);
  expect(log.accept({ runId: "r", seq: 2 })).toBe(CursorVerdict.duplicate);
  expect(log.accept({ runId: "r", seq: 1 })).toBe(CursorVerdict.duplicate);
  expect(log.lastSeq("r")).toBe(2);
});

test("runs are tracked separately", () => {
  const log = createEventLog();
  log.accept({ runId: "a", seq: 1 });
  expect(log.accept({ runId: "b", seq: 1 })).toBe(CursorVerdict.fresh);
  expect(log.lastSeq("a")).toBe(1);
  expect(log.lastSeq("c")).toBe(0);
});

test("a skipped seq is a gap and is not recorded", () => {
  const log = createEventLog();
  log.accept({ runId: "r", seq: 1 });
  expect(log.accept({ runId: "r", seq: 3 })).toBe(CursorVerdict.gap);
  expect(log.lastSeq("r")).toBe(1);
  expect(log.accept({ runId: "r", seq: 2 })).toBe(CursorVerdict.fresh);
  expect(log.accept({ runId: "r", seq: 3 })).toBe(CursorVerdict.fresh);
});

test("seeding with a persisted cursor makes everything up to it a duplicate", () => {
  const log = createEventLog([
    { runId: "r", seq: 4 },
    { runId: "r", seq: 2 },
  ]);
  expect(log.lastSeq("r")).toBe(4);
  expect(log.accept({ runId: "r", seq: 4 })).toBe(CursorVerdict.duplicate);
  expect(log.accept({ runId: "r", seq: 5 })).toBe(CursorVerdict.fresh);
});

test("events without a cursor are always fresh: nothing to de-duplicate by", () => {
  const log = createEventLog();
  expect(log.accept(undefined)).toBe(CursorVerdict.fresh);
  expect(log.accept(undefined)).toBe(CursorVerdict.fresh);
});

test("a re-attach that replays frames never shows a message twice", async () => {
  const frames = runFrames("r").split(/(?<=\n\n)/);
  const shown: string[] = [];
  const log = createEventLog();
  const show = async (chunks: string[]) => {
    const result = await collect(readEventStream(sseResponse(chunks)));
    for (const { event, cursor } of result.events) {
      if (log.accept(cursor) === CursorVerdict.fresh) shown.push(`${cursor?.seq}:${event.type}`);
    }
    return result;
  };
  // The first connection drops after three frames...
  const first = await show(frames.slice(0, 3));
  expect(first.error).toBeDefined();
  // ...and the server replays from further back than the client needs.
  const second = await show(frames.slice(1));
  expect(second.end?.terminal.type).toBe("RUN_FINISHED");
  expect(shown).toEqual([
    "1:RUN_STARTED",
    "2:TEXT_MESSAGE_START",
    "3:TEXT_MESSAGE_CONTENT",
    "4:TEXT_MESSAGE_END",
    "5:RUN_FINISHED",
  ]);
});
