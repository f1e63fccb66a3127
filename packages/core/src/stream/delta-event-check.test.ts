import { expect, test } from "vitest";
import { OutboxError } from "../errors/outbox-error";
import { EventMiniSchema, parseEventId, StreamCursorSchema } from "../protocol/index";
import { decodeEventFrame } from "./decode-event-frame";
import { isValidDeltaEvent } from "./delta-event-check";

const DELTA_TYPES = ["TEXT_MESSAGE_CONTENT", "TOOL_CALL_ARGS", "REASONING_MESSAGE_CONTENT"] as const;

/** The field names the schema declares for one event type, read from the schema itself. */
function schemaKeys(type: string): string[] {
  const { options } = (EventMiniSchema as unknown as { _zod: { def: { options: unknown[] } } })._zod.def;
  for (const option of options) {
    const shape = (option as { _zod: { def: { shape: Record<string, unknown> } } })._zod.def.shape;
    const literal = (shape.type as { _zod: { def: { values: unknown[] } } })._zod.def.values;
    if (literal.includes(type)) return Object.keys(shape);
  }
  throw new Error(`no schema for ${type}`);
}

// Every kind of JSON value, the edges of the checks, and values JSON cannot
// carry (the check takes any value, so it must be as strict on those too).
const PALETTE: readonly unknown[] = [
  "",
  "x",
  "TEXT_MESSAGE_CONTENT",
  "TOOL_CALL_ARGS",
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  2 ** 53,
  -(2 ** 53),
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  null,
  true,
  false,
  [],
  ["x"],
  {},
  { "x-stream": { runId: "r", seq: 1 } },
  undefined,
];
const ABSENT = Symbol("absent");

function base(type: string): Record<string, unknown> {
  return type === "TOOL_CALL_ARGS"
    ? { type, toolCallId: "call-1", delta: '{"a":' }
    : { type, messageId: "m1", delta: "hello" };
}

function withField(event: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...event };
  if (value === ABSENT) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** The check may decline anything, but what it accepts the schema must accept, unchanged. */
function expectNoLooserThanSchema(candidate: unknown): boolean {
  const accepted = isValidDeltaEvent(candidate);
  if (accepted) {
    const parsed = EventMiniSchema.safeParse(candidate);
    expect(parsed.success, JSON.stringify(candidate)).toBe(true);
    expect(parsed.data).toStrictEqual(candidate);
  }
  return accepted;
}

test("the hand check knows every field the schema declares for the delta events", () => {
  const common = ["type", "timestamp", "rawEvent", "metadata", "subagentRunId", "delta"];
  expect(new Set(schemaKeys("TEXT_MESSAGE_CONTENT"))).toEqual(new Set([...common, "messageId"]));
  expect(new Set(schemaKeys("REASONING_MESSAGE_CONTENT"))).toEqual(new Set([...common, "messageId"]));
  expect(new Set(schemaKeys("TOOL_CALL_ARGS"))).toEqual(new Set([...common, "toolCallId"]));
});

test("every value in every declared field, one field and two fields at a time: never looser than the schema", () => {
  let accepted = 0;
  let checked = 0;
  for (const type of DELTA_TYPES) {
    const keys = [...schemaKeys(type), "extra", "messageId", "toolCallId"];
    const values = [...PALETTE, ABSENT];
    for (const key of keys) {
      for (const value of values) {
        const one = withField(base(type), key, value);
        checked += 1;
        if (expectNoLooserThanSchema(one)) accepted += 1;
        for (const second of keys) {
          if (second === key) continue;
          for (const other of [ABSENT, "", 7, null, {}, [], 1.5]) {
            checked += 1;
            if (expectNoLooserThanSchema(withField(one, second, other))) accepted += 1;
          }
        }
      }
    }
  }
  // Not vacuous: the valid variants are taken by the hand check.
  expect(checked).toBeGreaterThan(10_000);
  expect(accepted).toBeGreaterThan(500);
});

test("valid deltas with every optional field are accepted; non-objects and other types are declined", () => {
  for (const type of DELTA_TYPES) {
    const full = { ...base(type), timestamp: 1_700_000_000_000, rawEvent: { raw: 1 }, subagentRunId: "s" };
    expect(isValidDeltaEvent({ ...full, metadata: { "x-stream": { runId: "r", seq: 2 } }, extra: [1] })).toBe(
      true,
    );
  }
  for (const value of [null, "TEXT_MESSAGE_CONTENT", 1, [base("TOOL_CALL_ARGS")]]) {
    expect(isValidDeltaEvent(value)).toBe(false);
  }
  expect(isValidDeltaEvent({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" })).toBe(false);
});

test("an own __proto__ key, which the schema drops from its output, is left to the schema", () => {
  const candidate: unknown = JSON.parse(
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"d","__proto__":{"x":1}}',
  );
  expect(isValidDeltaEvent(candidate)).toBe(false);
  const decoded = decodeEventFrame({ id: undefined, event: undefined, data: JSON.stringify(candidate) });
  expect(Object.hasOwn(decoded.event, "__proto__")).toBe(false);
});

test("the x-stream echo is judged as the cursor schema and the id judge it, whatever its shape", () => {
  const echoes: unknown[] = [
    { runId: "r", seq: 2 },
    { runId: "r", seq: 2, extra: true },
    { runId: "r", seq: 3 },
    { runId: "other", seq: 2 },
    { runId: "", seq: 2 },
    { runId: "r", seq: "2" },
    { runId: "r", seq: 2.5 },
    { runId: "r", seq: 0 },
    { runId: "r", seq: -2 },
    { runId: "r", seq: 2 ** 53 },
    { runId: "r:b", seq: 2 },
    { runId: "r", seq: 20 },
    { runId: "r" },
    { seq: 2 },
    ["r", 2],
    "r:2",
    null,
    2,
  ];
  for (const id of [
    "r:2",
    undefined,
    "not-a-cursor",
    "r:02",
    ":2",
    "r:b:2",
    "r:2.0",
    "r:20",
    "r:-2",
    "r:9007199254740992",
  ]) {
    for (const echoed of echoes) {
      for (const event of [
        base("TEXT_MESSAGE_CONTENT"),
        { type: "RUN_STARTED", threadId: "t", runId: "r" },
      ]) {
        const data = JSON.stringify({ ...event, metadata: { "x-stream": echoed } });
        const outcome = (() => {
          try {
            const decoded = decodeEventFrame({ id, event: undefined, data });
            expect(decoded.cursor).toEqual(id === undefined ? undefined : parseEventId(id));
            return "accepted";
          } catch (error) {
            return error instanceof OutboxError ? error.message : "unexpected";
          }
        })();
        // The rule as written before the hand check: schema first, then agreement with the id.
        const parsed = StreamCursorSchema.safeParse(echoed);
        const cursor = id === undefined ? undefined : parseEventId(id);
        const expected = !parsed.success
          ? 'metadata["x-stream"] is not a stream cursor'
          : cursor?.runId === parsed.data.runId && cursor.seq === parsed.data.seq
            ? "accepted"
            : 'The frame id and metadata["x-stream"] disagree';
        expect(outcome.startsWith(expected), `${id} ${JSON.stringify(echoed)}: ${outcome}`).toBe(true);
      }
    }
  }
});
