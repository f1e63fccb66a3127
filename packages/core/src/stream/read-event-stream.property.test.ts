// Properties of the SSE reader: the events do not depend on how the bytes were cut, and
// whatever the bytes, the reader ends with its events and a typed error, never anything else.
import fc from "fast-check";
import { expect, test } from "vitest";
import { assertProperty } from "../../test/support/property";
import { bytes, type Collected, collect, frame, splitAt, sseResponse } from "../../test/support/sse-fixtures";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { decodeEventFrame } from "./decode-event-frame";
import { readEventStream } from "./read-event-stream";

const STREAM_ERRORS: ReadonlySet<string> = new Set([
  ErrorKind.streamEnded,
  ErrorKind.malformedStream,
  ErrorKind.invalidJson,
  ErrorKind.invalidEvent,
]);

const text = fc.string({ unit: "binary", maxLength: 24 });
const id = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 8 });

/** Events an ordinary run is made of, with any text in their deltas (any code point). */
const event = fc.oneof(
  fc.record({ type: fc.constant("TEXT_MESSAGE_START"), messageId: id, role: fc.constant("assistant") }),
  fc.record({ type: fc.constant("TEXT_MESSAGE_CONTENT"), messageId: id, delta: text }),
  fc.record({ type: fc.constant("TOOL_CALL_ARGS"), toolCallId: id, delta: text }),
  fc.record({ type: fc.constant("TEXT_MESSAGE_END"), messageId: id }),
  fc.record({ type: fc.constant("STEP_STARTED"), stepName: text }),
);
const terminal = fc.oneof(
  fc.record({ type: fc.constant("RUN_FINISHED"), threadId: id, runId: id }),
  fc.record({ type: fc.constant("RUN_ERROR"), message: text }),
);
const eol = fc.constantFrom("\n", "\r\n", "\r");

/** A well-formed stream: frames with cursors, comments between them, ended or cut. */
const wellFormed = fc
  .record({
    events: fc.array(event, { maxLength: 6 }),
    end: fc.option(terminal, { nil: undefined }),
    eol,
    comments: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  })
  .map(({ events, end, eol, comments }) => {
    const all = end === undefined ? events : [...events, end];
    const wire = all
      .map((item, index) => {
        const comment = comments[index] ? `: keepalive${eol}` : "";
        return comment + frame(item, { runId: "run", seq: index + 1 }, eol);
      })
      .join("");
    return { wire: bytes(wire), types: all.map((item) => item.type), ended: end !== undefined };
  });

/** Lines a server might send, right or wrong, with any line ending. */
const line = fc.oneof(
  text.map((value) => `data: ${value}`),
  fc.jsonValue({ maxDepth: 2 }).map((value) => `data: ${JSON.stringify(value)}`),
  event.map((value) => `data: ${JSON.stringify(value)}`),
  terminal.map((value) => `data: ${JSON.stringify(value)}`),
  text.map((value) => `id: ${value}`),
  fc.nat().map((seq) => `id: run:${seq}`),
  text.map((value) => `retry: ${value}`),
  text.map((value) => `: ${value}`),
  fc.constant(""),
  text,
);
const anyStream = fc
  .array(fc.tuple(line, eol), { maxLength: 12 })
  .map((lines) => bytes(lines.map(([content, ending]) => content + ending).join("")));
const anyBytes = fc.uint8Array({ maxLength: 64 });

/** Cut points inside `data`, sorted, duplicates kept (an empty chunk is a chunk too). */
const cutsOf = (length: number) =>
  fc.array(fc.nat({ max: length }), { maxLength: 8 }).map((cuts) => cuts.sort((a, b) => a - b));

/** What a reading comes to: the events and how it ended, in comparable form. */
function outcome(result: Collected) {
  return {
    events: result.events,
    end: result.end?.terminal.type,
    error: result.error instanceof OutboxError ? result.error.kind : result.error,
  };
}

function typedOrNone(error: unknown): boolean {
  return error === undefined || (error instanceof OutboxError && STREAM_ERRORS.has(error.kind));
}

test("a well-formed stream yields its events, in order, however its bytes are cut", async () => {
  await assertProperty(
    fc.asyncProperty(
      wellFormed.chain((stream) => fc.tuple(fc.constant(stream), cutsOf(stream.wire.length))),
      async ([stream, cuts]) => {
        const result = await collect(readEventStream(sseResponse(splitAt(stream.wire, cuts))));
        expect(result.events.map((item) => item.event.type)).toEqual(stream.types);
        expect(result.events.map((item) => item.cursor?.seq)).toEqual(stream.types.map((_, i) => i + 1));
        if (stream.ended) expect(result.error).toBeUndefined();
        else expect(result.error).toMatchObject({ kind: ErrorKind.streamEnded });
      },
    ),
  );
});

test("any stream comes to the same events and the same ending however its bytes are cut", async () => {
  await assertProperty(
    fc.asyncProperty(
      fc
        .oneof(anyStream, anyBytes)
        .chain((wire) => fc.tuple(fc.constant(wire), cutsOf(wire.length), cutsOf(wire.length))),
      async ([wire, cuts, otherCuts]) => {
        const once = await collect(readEventStream(sseResponse(splitAt(wire, cuts))));
        const again = await collect(readEventStream(sseResponse(splitAt(wire, otherCuts))));
        expect(typedOrNone(once.error), String(once.error)).toBe(true);
        expect(outcome(again)).toEqual(outcome(once));
      },
    ),
  );
});

test("a frame's data, whatever it holds, decodes to an event or fails with a typed error", async () => {
  const data = fc.oneof(
    text,
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc
      .record({ type: fc.constantFrom("RUN_STARTED", "RUN_FINISHED", "STATE_DELTA", "CUSTOM", "toString") })
      .chain((head) =>
        fc
          .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))
          .map((rest) => ({ ...rest, ...head })),
      )
      .map((value) => JSON.stringify(value)),
  );
  await assertProperty(
    fc.asyncProperty(data, fc.option(text, { nil: undefined }), async (payload, frameId) => {
      let error: unknown;
      try {
        await decodeEventFrame({ data: payload, id: frameId, event: undefined });
      } catch (caught) {
        error = caught;
      }
      expect(typedOrNone(error), String(error)).toBe(true);
    }),
  );
});
