import { expect, test } from "vitest";
import { bytes, collect, runFrames, splitAt, sseResponse } from "../../test/support/sse-fixtures";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { readEventStream } from "./read-event-stream";

test("reads a run from a real ReadableStream in the browser, split through a multi-byte character", async () => {
  const data = bytes(runFrames());
  const emoji = data.indexOf(0xf0); // the first byte of 👋
  const result = await collect(readEventStream(sseResponse(splitAt(data, [emoji + 1, emoji + 3]))));
  expect(result.error).toBeUndefined();
  expect(result.events.map((e) => e.cursor?.seq)).toEqual([1, 2, 3, 4, 5]);
  expect(result.events[2]?.event).toMatchObject({ delta: "héllo wörld 👋 — ok" });
  expect(result.end?.terminal.type).toBe("RUN_FINISHED");
});

test("reads a body the browser's own fetch produced", async () => {
  const url = URL.createObjectURL(new Blob([runFrames()], { type: "text/event-stream" }));
  try {
    const result = await collect(readEventStream(await fetch(url)));
    expect(result.events).toHaveLength(5);
    expect(result.end?.cursor).toEqual({ runId: "run-1", seq: 5 });
  } finally {
    URL.revokeObjectURL(url);
  }
});

test("an HTML page fetched with status 200 is not_event_stream", async () => {
  const url = URL.createObjectURL(new Blob(["<!doctype html><p>login</p>"], { type: "text/html" }));
  try {
    const { error } = await collect(readEventStream(await fetch(url)));
    expect(error).toBeInstanceOf(OutboxError);
    expect((error as OutboxError).kind).toBe(ErrorKind.notEventStream);
  } finally {
    URL.revokeObjectURL(url);
  }
});
