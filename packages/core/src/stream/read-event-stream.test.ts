import { afterEach, expect, test, vi } from "vitest";
import {
  bytes,
  collect,
  controlledResponse,
  frame,
  runFrames,
  splitAt,
  sseResponse,
} from "../../test/support/sse-fixtures";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { readEventBatches, readEventStream } from "./read-event-stream";

afterEach(() => {
  vi.useRealTimers();
});

function kindOf(error: unknown): string | undefined {
  return error instanceof OutboxError ? error.kind : undefined;
}

const run = runFrames();
const runBytes = bytes(run);

test("a whole run yields every event with its cursor and returns the terminal event", async () => {
  const result = await collect(readEventStream(sseResponse([run])));
  expect(result.error).toBeUndefined();
  expect(result.events.map((e) => e.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  expect(result.events.map((e) => e.cursor)).toEqual([1, 2, 3, 4, 5].map((seq) => ({ runId: "run-1", seq })));
  expect(result.events[2]?.event).toMatchObject({ delta: "héllo wörld 👋 — ok" });
  expect(result.end?.terminal.type).toBe("RUN_FINISHED");
  expect(result.end?.cursor).toEqual({ runId: "run-1", seq: 5 });
});

test("the same stream split at every byte boundary yields the same events", async () => {
  const whole = await collect(readEventStream(sseResponse([runBytes])));
  for (let offset = 1; offset < runBytes.length; offset++) {
    const split = await collect(readEventStream(sseResponse(splitAt(runBytes, [offset]))));
    expect(split.error, `split at ${offset}`).toBeUndefined();
    expect(split.events, `split at ${offset}`).toEqual(whole.events);
  }
  const oneByteEach = Array.from(runBytes, (byte) => Uint8Array.of(byte));
  expect((await collect(readEventStream(sseResponse(oneByteEach)))).events).toEqual(whole.events);
});

test("CRLF line endings parse like LF, at every split; bare CR too", async () => {
  const lf = await collect(readEventStream(sseResponse([run])));
  const crlf = bytes(runFrames("run-1", "\r\n"));
  for (let offset = 1; offset < crlf.length; offset++) {
    const split = await collect(readEventStream(sseResponse(splitAt(crlf, [offset]))));
    expect(split.events, `split at ${offset}`).toEqual(lf.events);
    expect(split.end?.terminal.type).toBe("RUN_FINISHED");
  }
  const cr = bytes(runFrames("run-1", "\r"));
  expect((await collect(readEventStream(sseResponse([cr])))).events).toEqual(lf.events);
  const crOneByteEach = Array.from(cr, (byte) => Uint8Array.of(byte));
  expect((await collect(readEventStream(sseResponse(crOneByteEach)))).events).toEqual(lf.events);
});

test("a CRLF split between its CR and its LF is still one line ending", async () => {
  const chunks = ['id: r:1\r\ndata: {"type":"RUN_ERROR",\r', '\ndata: "message":"m"}\r', "\n\r", "\n"];
  const result = await collect(readEventStream(sseResponse(chunks)));
  expect(result.error).toBeUndefined();
  expect(result.end?.terminal).toEqual({ type: "RUN_ERROR", message: "m" });
});

test("a terminal event ended by bare CRs is yielded without waiting for more bytes", async () => {
  const open = controlledResponse();
  const stream = readEventStream(open.response);
  open.controller.enqueue(bytes(frame({ type: "RUN_ERROR", message: "m" }, { runId: "r", seq: 1 }, "\r")));
  const next = await stream.next();
  expect(next.value).toMatchObject({ event: { type: "RUN_ERROR" } });
  expect((await stream.next()).done).toBe(true);
});

test("multi-line data is joined with newlines before JSON parsing", async () => {
  const stream = [
    "id: r:1\n",
    'data: {"type": "RUN_STARTED",\n',
    'data:  "threadId": "t",\n',
    'data: "runId": "r"}\n',
    "\n",
    `id: r:2\ndata: ${JSON.stringify({ type: "RUN_FINISHED", threadId: "t", runId: "r" })}\n\n`,
  ].join("");
  const result = await collect(readEventStream(sseResponse([stream])));
  expect(result.error).toBeUndefined();
  expect(result.events[0]?.event).toEqual({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  expect(result.events[0]?.cursor).toEqual({ runId: "r", seq: 1 });
});

test("comments are surfaced, count as activity and never become events", async () => {
  const comments: string[] = [];
  let activity = 0;
  const frames = run.split(/(?<=\n\n)/);
  const chunks = frames.flatMap((f) => [": keepalive\n\n", f]);
  const result = await collect(
    readEventStream(sseResponse(chunks), {
      onComment: (comment) => comments.push(comment),
      onActivity: () => {
        activity++;
      },
    }),
  );
  expect(result.events).toHaveLength(5);
  expect(comments).toEqual(["keepalive", "keepalive", "keepalive", "keepalive", "keepalive"]);
  expect(activity).toBe(chunks.length);
});

test("retry: values are reported; a non-numeric one is ignored as the spec says", async () => {
  const retries: number[] = [];
  const stream = `retry: 2500\n\nretry: soon\n\n${run}`;
  const result = await collect(readEventStream(sseResponse([stream]), { onRetry: (ms) => retries.push(ms) }));
  expect(result.error).toBeUndefined();
  expect(retries).toEqual([2500]);
});

test("ids: the contract format becomes a cursor; a missing or foreign id gives none", async () => {
  const started = { type: "RUN_STARTED", threadId: "t", runId: "r:with:colons" };
  const stream = [
    frame(started, { runId: "r:with:colons", seq: 7 }),
    `data: ${JSON.stringify({ type: "TEXT_MESSAGE_START", messageId: "m" })}\n\n`,
    `id: 3f1c-uuid\ndata: ${JSON.stringify({ type: "TEXT_MESSAGE_END", messageId: "m" })}\n\n`,
    `data: ${JSON.stringify({ type: "RUN_ERROR", message: "boom", code: "X" })}\n\n`,
  ].join("");
  const result = await collect(readEventStream(sseResponse([stream])));
  expect(result.error).toBeUndefined();
  expect(result.events.map((e) => e.cursor)).toEqual([
    { runId: "r:with:colons", seq: 7 },
    undefined,
    undefined,
    undefined,
  ]);
  expect(result.end?.terminal).toMatchObject({ type: "RUN_ERROR", code: "X" });
  expect(result.end?.cursor).toBeUndefined();
});

test("metadata x-stream that disagrees with the id, or has no id to agree with, is malformed", async () => {
  const started = (cursor: unknown) => ({
    type: "RUN_STARTED",
    threadId: "t",
    runId: "r",
    metadata: { "x-stream": cursor },
  });
  const cases = [
    `id: r:2\ndata: ${JSON.stringify(started({ runId: "r", seq: 3 }))}\n\n`,
    `id: r:2\ndata: ${JSON.stringify(started({ runId: "other", seq: 2 }))}\n\n`,
    `data: ${JSON.stringify(started({ runId: "r", seq: 2 }))}\n\n`,
    `id: r:2\ndata: ${JSON.stringify(started("r:2"))}\n\n`,
  ];
  for (const stream of cases) {
    const result = await collect(readEventStream(sseResponse([stream])));
    expect(kindOf(result.error), stream).toBe(ErrorKind.malformedStream);
    expect(result.events).toEqual([]);
  }
});

test("stopping at the terminal event: later frames are not read and the body is closed", async () => {
  const cancel = vi.fn();
  const extra = frame({ type: "RUN_STARTED", threadId: "t", runId: "next" }, { runId: "next", seq: 1 });
  const result = await collect(readEventStream(sseResponse([run, extra], { onCancel: cancel })));
  expect(result.events).toHaveLength(5);
  expect(result.end?.terminal.type).toBe("RUN_FINISHED");
  expect(cancel).toHaveBeenCalledTimes(1);
});

// ---- bad input ---------------------------------------------------------------

test("malformed SSE framing (a line that is no field) fails after the events before it", async () => {
  const [first = "", ...rest] = run.split(/(?<=\n\n)/);
  const stream = `${first}{"type":"TEXT_MESSAGE_START","messageId":"secret-answer"}\n\n${rest.join("")}`;
  const data = bytes(stream);
  for (const offset of [1, first.length + 3, data.length - 1]) {
    const result = await collect(readEventStream(sseResponse(splitAt(data, [offset]))));
    expect(kindOf(result.error)).toBe(ErrorKind.malformedStream);
    expect(result.events.map((e) => e.event.type)).toEqual(["RUN_STARTED"]);
    expect(String(result.error)).not.toContain("secret-answer");
  }
});

test("invalid JSON in data is invalid_json", async () => {
  const result = await collect(readEventStream(sseResponse(["id: r:1\ndata: {not json, secret}\n\n"])));
  expect(kindOf(result.error)).toBe(ErrorKind.invalidJson);
  expect((result.error as Error).message).toContain("r:1");
  expect((result.error as Error).message).not.toContain("secret");
});

test("an unknown event type is invalid_event and names the type", async () => {
  const result = await collect(readEventStream(sseResponse([frame({ type: "TELEPORT_STARTED", x: 1 })])));
  expect(kindOf(result.error)).toBe(ErrorKind.invalidEvent);
  expect((result.error as Error).message).toContain("TELEPORT_STARTED");
});

test("an unprintable type is not echoed, nor is JSON without a type", async () => {
  const weird = await collect(readEventStream(sseResponse([frame({ type: "approve: my secret plan" })])));
  expect(kindOf(weird.error)).toBe(ErrorKind.invalidEvent);
  expect((weird.error as Error).message).not.toContain("secret");
  for (const data of ["[1,2]", '"RUN_STARTED"', "null", '{"kind":"RUN_STARTED"}']) {
    const result = await collect(readEventStream(sseResponse([`data: ${data}\n\n`])));
    expect(kindOf(result.error), data).toBe(ErrorKind.invalidEvent);
  }
});

test("a known type with the wrong shape is invalid_event naming type and fields, not values", async () => {
  const result = await collect(
    readEventStream(
      sseResponse([
        frame(
          { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: { amount: "secret-9000" } },
          { runId: "r", seq: 4 },
        ),
      ]),
    ),
  );
  expect(kindOf(result.error)).toBe(ErrorKind.invalidEvent);
  const message = (result.error as Error).message;
  expect(message).toContain("TOOL_CALL_ARGS");
  expect(message).toContain("delta");
  expect(message).toContain("r:4");
  expect(message).not.toContain("secret-9000");
});

test("a 5 MB frame streamed in chunks fails with malformed_stream long before it is all read", async () => {
  const chunkSize = 64 * 1024;
  const total = 5 * 1024 * 1024;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === 0) {
        controller.enqueue(bytes('id: r:1\ndata: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"'));
      }
      if (pulled >= total) {
        controller.enqueue(bytes('"}\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(chunkSize).fill(0x61));
      pulled += chunkSize;
    },
  });
  const response = new Response(body, { headers: { "content-type": "text/event-stream" } });
  const result = await collect(readEventStream(response));
  expect(kindOf(result.error)).toBe(ErrorKind.malformedStream);
  expect(pulled).toBeLessThan(2 * 1024 * 1024);
});

test("a 5 MB frame that arrives in a single chunk is refused too", async () => {
  const big = frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "a".repeat(5 * 1024 * 1024) });
  const result = await collect(readEventStream(sseResponse([big + run])));
  expect(kindOf(result.error)).toBe(ErrorKind.malformedStream);
  expect(result.events).toEqual([]);
});

test("an oversized partial line ending in a bare CR is malformed_stream, not a parser crash", async () => {
  const chunk = `data: "${"a".repeat(40_000)}\r`;
  const result = await collect(readEventStream(sseResponse([chunk, "\n"]), { maxEventBytes: 100 }));
  expect(kindOf(result.error)).toBe(ErrorKind.malformedStream);
});

test("maxEventBytes counts UTF-8 bytes of data: exactly at the limit passes, one more fails", async () => {
  const content = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta });
  const dataBytes = (delta: string) => bytes(JSON.stringify(content(delta))).length;
  const limit = 200;
  // "é" is 2 bytes in UTF-8 but 1 UTF-16 unit: only a byte count gets this right.
  const base = dataBytes("");
  const atLimit = "é".repeat((limit - base) / 2);
  expect(dataBytes(atLimit)).toBe(limit);
  const terminal = frame({ type: "RUN_ERROR", message: "stop" });
  for (const [delta, expected] of [
    [atLimit, undefined],
    [`${atLimit}a`, ErrorKind.malformedStream],
  ] as const) {
    const data = bytes(frame(content(delta)) + terminal);
    const whole = await collect(readEventStream(sseResponse([data]), { maxEventBytes: limit }));
    const byteByByte = await collect(
      readEventStream(sseResponse(Array.from(data, (b) => Uint8Array.of(b))), { maxEventBytes: limit }),
    );
    expect(kindOf(whole.error)).toBe(expected);
    expect(kindOf(byteByByte.error)).toBe(expected);
  }
});

test("an HTML page served with status 200 is not_event_stream, and its body is released", async () => {
  const cancel = vi.fn();
  const response = sseResponse(["<!doctype html><h1>Sign in</h1>"], {
    contentType: "text/html; charset=utf-8",
    onCancel: cancel,
  });
  const result = await collect(readEventStream(response));
  expect(kindOf(result.error)).toBe(ErrorKind.notEventStream);
  expect((result.error as Error).message).toContain("text/html");
  expect(cancel).toHaveBeenCalledTimes(1);
});

test("a missing content type or a null body is not_event_stream; parameters are fine", async () => {
  const noType = await collect(readEventStream(sseResponse([run], { contentType: null })));
  expect(kindOf(noType.error)).toBe(ErrorKind.notEventStream);
  const noBody = new Response(null, { status: 200, headers: { "content-type": "text/event-stream" } });
  expect(kindOf((await collect(readEventStream(noBody))).error)).toBe(ErrorKind.notEventStream);
  const withCharset = sseResponse([run], { contentType: "Text/Event-Stream; charset=utf-8" });
  expect((await collect(readEventStream(withCharset))).end?.terminal.type).toBe("RUN_FINISHED");
});

test("a non-2xx response is refused as http with its status", async () => {
  const result = await collect(readEventStream(sseResponse([run], { status: 503 })));
  expect(kindOf(result.error)).toBe(ErrorKind.http);
  expect((result.error as OutboxError).status).toBe(503);
});

test("EOF before a terminal event is stream_ended, after yielding what came", async () => {
  const withoutTerminal = run
    .split(/(?<=\n\n)/)
    .slice(0, 3)
    .join("");
  const result = await collect(readEventStream(sseResponse([withoutTerminal])));
  expect(result.events).toHaveLength(3);
  expect(kindOf(result.error)).toBe(ErrorKind.streamEnded);
  expect((result.error as Error).message).toContain("run-1:3");
});

test("an event cut off by EOF (no blank line) is discarded, and the end is stream_ended", async () => {
  const truncated = run.slice(0, run.lastIndexOf("\n\n"));
  const result = await collect(readEventStream(sseResponse([truncated])));
  expect(result.events.map((e) => e.event.type)).not.toContain("RUN_FINISHED");
  expect(result.events).toHaveLength(4);
  expect(kindOf(result.error)).toBe(ErrorKind.streamEnded);
});

test("a connection that drops mid-stream is stream_ended with the cause kept", async () => {
  const { response, controller } = controlledResponse();
  const stream = readEventStream(response);
  controller.enqueue(bytes(run.split(/(?<=\n\n)/)[0] ?? ""));
  expect((await stream.next()).value).toMatchObject({ cursor: { seq: 1 } });
  const reset = new TypeError("network reset");
  controller.error(reset);
  const error = await stream.next().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(kindOf(error)).toBe(ErrorKind.streamEnded);
  expect((error as Error).cause).toBe(reset);
});

// ---- liveness and cancellation -------------------------------------------------

test("a 200 stream that never sends a byte fails with stream_stalled after 45 s", async () => {
  vi.useFakeTimers();
  const cancel = vi.fn();
  const { response } = controlledResponse({ onCancel: cancel });
  const next = readEventStream(response).next();
  const settled = vi.fn();
  next.then(settled, settled);
  await vi.advanceTimersByTimeAsync(44_999);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  await expect(next).rejects.toMatchObject({ kind: ErrorKind.streamStalled });
  expect(cancel).toHaveBeenCalledTimes(1);
});

test("keepalive comments keep a quiet stream alive; silence after them stalls it", async () => {
  vi.useFakeTimers();
  const { response, controller } = controlledResponse();
  const next = readEventStream(response, { stallTimeoutMs: 45_000 }).next();
  const settled = vi.fn();
  next.then(settled, settled);
  for (let i = 0; i < 4; i++) {
    await vi.advanceTimersByTimeAsync(15_000);
    controller.enqueue(bytes(": keepalive\n\n"));
  }
  await vi.advanceTimersByTimeAsync(44_000);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1_000);
  await expect(next).rejects.toMatchObject({ kind: ErrorKind.streamStalled });
});

test("time the consumer spends between events does not count as silence", async () => {
  vi.useFakeTimers();
  const { response, controller } = controlledResponse();
  const stream = readEventStream(response);
  controller.enqueue(bytes(run.split(/(?<=\n\n)/)[0] ?? ""));
  await stream.next();
  await vi.advanceTimersByTimeAsync(60_000); // the app is busy with the first event
  const next = stream.next();
  const settled = vi.fn();
  next.then(settled, settled);
  await vi.advanceTimersByTimeAsync(44_999);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  await expect(next).rejects.toMatchObject({ kind: ErrorKind.streamStalled });
});

test("aborting the signal rejects with its reason and closes the body", async () => {
  const cancel = vi.fn();
  const { response } = controlledResponse({ onCancel: cancel });
  const abort = new AbortController();
  const next = readEventStream(response, { signal: abort.signal }).next();
  const reason = new Error("navigated away");
  abort.abort(reason);
  await expect(next).rejects.toBe(reason);
  expect(cancel).toHaveBeenCalledTimes(1);
});

test("an already aborted signal rejects before reading", async () => {
  const cancel = vi.fn();
  const abort = new AbortController();
  abort.abort();
  const result = await collect(
    readEventStream(sseResponse([run], { onCancel: cancel }), { signal: abort.signal }),
  );
  expect((result.error as Error).name).toBe("AbortError");
  expect(cancel).toHaveBeenCalledTimes(1);
});

test("breaking out of the loop closes the body", async () => {
  const cancel = vi.fn();
  const { response, controller } = controlledResponse({ onCancel: cancel });
  controller.enqueue(bytes(run));
  for await (const streamed of readEventStream(response)) {
    if (streamed.cursor?.seq === 2) break;
  }
  expect(cancel).toHaveBeenCalledTimes(1);
});

// ---- batches -------------------------------------------------------------------

test("readEventBatches yields the events of each chunk together, in order, and returns the end", async () => {
  const frames = run.split(/(?<=\n\n)/);
  // Chunks: frames 1-2 whole, frame 3 cut in two, frames 4-5.
  const third = frames[2] ?? "";
  const chunks = [
    frames[0] + (frames[1] ?? ""),
    third.slice(0, 20),
    third.slice(20),
    (frames[3] ?? "") + (frames[4] ?? ""),
  ];
  const batches = readEventBatches(sseResponse(chunks));
  const seen: number[][] = [];
  for (;;) {
    const next = await batches.next();
    if (next.done) {
      expect(next.value.terminal.type).toBe("RUN_FINISHED");
      expect(next.value.cursor).toEqual({ runId: "run-1", seq: 5 });
      break;
    }
    seen.push(next.value.map((streamed) => streamed.cursor?.seq ?? 0));
  }
  expect(seen).toEqual([[1, 2], [3], [4, 5]]);
});

test("readEventBatches: the events before a failure in the same chunk come first, then the error", async () => {
  const [first = "", second = ""] = run.split(/(?<=\n\n)/);
  const badJson = "id: run-1:3\ndata: {oops\n\n";
  const batches = readEventBatches(sseResponse([first + second + badJson]));
  const next = await batches.next();
  expect(next.done).toBe(false);
  expect(next.done ? [] : next.value.map((streamed) => streamed.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
  ]);
  await expect(batches.next()).rejects.toMatchObject({ kind: ErrorKind.invalidJson });
});

test("an abort while the consumer handles one event of a chunk stops the events after it", async () => {
  const cancel = vi.fn();
  const abort = new AbortController();
  const { response, controller } = controlledResponse({ onCancel: cancel });
  controller.enqueue(runBytes); // all five events in one chunk, and the body stays open
  const stream = readEventStream(response, { signal: abort.signal });
  const seen: string[] = [];
  const reason = new Error("navigated away");
  const result = await (async () => {
    try {
      for await (const { event } of stream) {
        seen.push(event.type);
        abort.abort(reason);
      }
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  expect(result).toBe(reason);
  expect(seen).toEqual(["RUN_STARTED"]);
  expect(cancel).toHaveBeenCalledTimes(1);
});
