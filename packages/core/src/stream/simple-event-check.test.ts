import { isDeepStrictEqual } from "node:util";
import { expect, test } from "vitest";
import { OutboxError } from "../errors/outbox-error";
import { EventMiniSchema, parseEventId, StreamCursorSchema } from "../protocol/public";
import { decodeEventFrame } from "./decode-event-frame";
import { isValidSimpleEvent, SIMPLE_EVENT_SHAPES } from "./simple-event-check";

const SIMPLE_TYPES = [...SIMPLE_EVENT_SHAPES.keys()];
const COMMON = ["type", "timestamp", "rawEvent", "metadata", "subagentRunId"];

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

/** The smallest valid event of a type: each required string, each required value. */
function base(type: string): Record<string, unknown> {
  const shape = SIMPLE_EVENT_SHAPES.get(type);
  if (!shape) throw new Error(`no shape for ${type}`);
  const event: Record<string, unknown> = { type };
  for (const field of shape.strings) event[field] = `${field}-1`;
  for (const field of shape.present ?? []) event[field] = { any: "value" };
  return event;
}

/** Every field the hand check reads for a type, besides the common ones. */
function handKeys(type: string): string[] {
  const shape = SIMPLE_EVENT_SHAPES.get(type);
  if (!shape) throw new Error(`no shape for ${type}`);
  return [
    ...shape.strings,
    ...(shape.optionalStrings ?? []),
    ...Object.keys(shape.optionalChoices ?? {}),
    ...(shape.present ?? []),
    ...(shape.optionalNotNull ?? []),
    ...Object.keys(shape.optionalChecks ?? {}),
    ...(shape.absent ?? []),
  ];
}

function withField(event: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...event };
  if (value === ABSENT) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** The check may decline anything, but what it accepts the schema must accept, unchanged. */
function expectNoLooserThanSchema(candidate: unknown): boolean {
  const accepted = isValidSimpleEvent(candidate);
  if (accepted) {
    const parsed = EventMiniSchema.safeParse(candidate);
    // Asserted only on a mismatch: tens of thousands of candidates, each cheap to compare.
    if (!parsed.success || !isDeepStrictEqual(parsed.data, candidate)) {
      expect(parsed.success, JSON.stringify(candidate)).toBe(true);
      expect(parsed.data).toStrictEqual(candidate);
    }
  }
  return accepted;
}

test("the hand check knows every field the schema declares for each event it checks", () => {
  for (const type of SIMPLE_TYPES) {
    // The run's own events declare no subagentRunId: the common check is stricter there.
    expect(new Set([...COMMON, ...schemaKeys(type)]), type).toEqual(new Set([...COMMON, ...handKeys(type)]));
  }
});

// One test per type: each is a few thousand candidates, so none runs long on a loaded machine.
for (const type of SIMPLE_TYPES) {
  test(`${type}: every value in every declared field, one field and two fields at a time: never looser than the schema`, () => {
    let accepted = 0;
    let checked = 0;
    const keys = [...schemaKeys(type), "extra", "messageId", "toolCallId"];
    const choices = Object.values(SIMPLE_EVENT_SHAPES.get(type)?.optionalChoices ?? {}).flat();
    const values = [...PALETTE, ...choices, "tool", ABSENT];
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
    // Not vacuous: the valid variants are taken by the hand check.
    expect(checked).toBeGreaterThan(1_500);
    expect(accepted).toBeGreaterThan(100);
  });
}

test("valid events with every optional field are accepted; non-objects and other types are declined", () => {
  for (const type of SIMPLE_TYPES) {
    const full: Record<string, unknown> = {
      ...base(type),
      timestamp: 1_700_000_000_000,
      rawEvent: { raw: 1 },
      subagentRunId: "s",
    };
    const shape = SIMPLE_EVENT_SHAPES.get(type);
    for (const field of shape?.optionalStrings ?? []) full[field] = "given";
    for (const field of shape?.optionalNotNull ?? []) full[field] = { any: "value" };
    for (const [field, allowed] of Object.entries(shape?.optionalChoices ?? {})) full[field] = allowed.at(-1);
    const candidate = { ...full, metadata: { "x-stream": { runId: "r", seq: 2 } }, extra: [1] };
    expect(expectNoLooserThanSchema(candidate), type).toBe(true);
  }
  for (const value of [null, "TEXT_MESSAGE_CONTENT", 1, [base("TOOL_CALL_ARGS")]]) {
    expect(isValidSimpleEvent(value)).toBe(false);
  }
  for (const type of ["__proto__", "toString", "constructor", "MESSAGES_SNAPSHOT", "STATE_DELTA"]) {
    expect(isValidSimpleEvent({ type, messageId: "m1", delta: "d", threadId: "t", runId: "r" })).toBe(false);
  }
  // A tool result carried as content parts is left to the schema.
  const parts = { ...base("TOOL_CALL_RESULT"), content: [{ type: "text", text: "ok" }] };
  expect(isValidSimpleEvent(parts)).toBe(false);
  expect(EventMiniSchema.safeParse(parts).success).toBe(true);
});

test("an own __proto__ key, which the schema drops from its output, is left to the schema", async () => {
  const candidate: unknown = JSON.parse(
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"d","__proto__":{"x":1}}',
  );
  expect(isValidSimpleEvent(candidate)).toBe(false);
  const decoded = decodeEventFrame({ id: undefined, event: undefined, data: JSON.stringify(candidate) });
  expect(decoded).toBeInstanceOf(Promise);
  expect(Object.hasOwn((await decoded).event, "__proto__")).toBe(false);
});

test("the x-stream echo is judged as the cursor schema and the id judge it, whatever its shape", async () => {
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
        const outcome = await (async () => {
          try {
            const decoded = await decodeEventFrame({ id, event: undefined, data });
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

const INTERRUPT = { id: "i1", reason: "tool_approval" };
const OUTCOMES: readonly unknown[] = [
  { type: "success" },
  { type: "success", pendingToolCallIds: [] },
  { type: "success", pendingToolCallIds: ["t1", "t2"] },
  { type: "success", pendingToolCallIds: ["t1", 2] },
  { type: "success", pendingToolCallIds: "t1" },
  { type: "success", extra: { nested: true } },
  { type: "cancelled" },
  { type: "cancelled", interrupts: [INTERRUPT] },
  { type: "interrupt", interrupts: [INTERRUPT] },
  { type: "interrupt", interrupts: [] },
  { type: "interrupt" },
  { type: "interrupt", interrupts: INTERRUPT },
  { type: "interrupt", interrupts: [INTERRUPT, null] },
  { type: "unknown" },
  { interrupts: [INTERRUPT] },
  JSON.parse('{"type":"success","__proto__":{"x":1}}'),
  ...[
    {
      ...INTERRUPT,
      message: "Run it?",
      toolCallId: "t1",
      expiresAt: "2030-01-01T00:00:00Z",
      subagentRunId: "s",
    },
    { ...INTERRUPT, responseSchema: { type: "object" }, metadata: { "x-idempotency-key": "k" }, extra: 1 },
    { ...INTERRUPT, responseSchema: [] },
    { ...INTERRUPT, responseSchema: null },
    { ...INTERRUPT, metadata: "m" },
    { ...INTERRUPT, message: 1 },
    { ...INTERRUPT, toolCallId: null },
    { ...INTERRUPT, expiresAt: 0 },
    { ...INTERRUPT, subagentRunId: [] },
    { id: "i1" },
    { reason: "r" },
    { id: 1, reason: "r" },
    JSON.parse('{"id":"i1","reason":"r","__proto__":{"x":1}}'),
  ].map((interrupt) => ({ type: "interrupt", interrupts: [interrupt] })),
];

test("RUN_FINISHED outcomes and their interrupts: taken by hand only where the schema takes them unchanged", () => {
  let accepted = 0;
  for (const outcome of OUTCOMES) {
    const event = { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome };
    if (expectNoLooserThanSchema(event)) accepted += 1;
    else if (EventMiniSchema.safeParse(event).success) {
      // Declined but valid: only the copies the schema makes without __proto__.
      expect(JSON.stringify(event)).toContain("__proto__");
    }
  }
  expect(accepted).toBe(9);
});

test("an event the hand check leaves to the schema is decoded once the schemas load, with the schema's errors", async () => {
  const snapshot = { type: "STATE_SNAPSHOT", snapshot: { step: 1 } };
  const decoded = decodeEventFrame({ id: "r:3", event: undefined, data: JSON.stringify(snapshot) });
  expect(decoded).toBeInstanceOf(Promise);
  expect(await decoded).toEqual({ event: snapshot, cursor: { runId: "r", seq: 3 } });
  const started = { type: "RUN_STARTED", threadId: "t", runId: "r", input: { threadId: 1 } };
  await expect(
    decodeEventFrame({ id: "r:1", event: undefined, data: JSON.stringify(started) }),
  ).rejects.toThrow("RUN_STARTED event does not match the AG-UI schema (fields: input) (frame r:1)");
  await expect(
    decodeEventFrame({ id: undefined, event: undefined, data: '{"type":"NOT_A_TYPE"}' }),
  ).rejects.toThrow("Unknown AG-UI event type NOT_A_TYPE");
  // A run's ordinary events never wait: decoded in the same turn.
  const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" } };
  expect(decodeEventFrame({ id: "r:4", event: undefined, data: JSON.stringify(finished) })).toEqual({
    event: finished,
    cursor: { runId: "r", seq: 4 },
  });
});
