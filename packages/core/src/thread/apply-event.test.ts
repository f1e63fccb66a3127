import { expect, test } from "vitest";
import { type AgUiEvent, EventSchema, EventType } from "../protocol";
import { applyEvent, FOLDED_TYPES, hasToolResult } from "./thread-draft";
import { emptyThreadState, type ThreadState } from "./thread-state";

const events = (raw: readonly unknown[]): AgUiEvent[] => raw.map((event) => EventSchema.parse(event));
const fold = (state: ThreadState, list: readonly AgUiEvent[]) => list.reduce(applyEvent, state);

const interruptRun = events([
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "I can " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "deploy that." },
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "deploy_change", parentMessageId: "m1" },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"target":' },
  { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '"prod"}' },
  { type: "TOOL_CALL_END", toolCallId: "call-1" },
  {
    type: "RUN_FINISHED",
    threadId: "t1",
    runId: "r1",
    outcome: { type: "interrupt", interrupts: [{ id: "call-1", reason: "tool_call", toolCallId: "call-1" }] },
  },
]);

test("a run that ends in an interrupt yields the message, the tool call and a pending interrupt", () => {
  const state = fold(emptyThreadState("t1"), interruptRun);
  expect(state.run).toEqual({ name: "interrupted", runId: "r1" });
  expect(state.messages).toEqual([
    {
      id: "m1",
      role: "assistant",
      content: "I can deploy that.",
      toolCalls: [
        {
          id: "call-1",
          type: "function",
          function: { name: "deploy_change", arguments: '{"target":"prod"}' },
        },
      ],
    },
  ]);
  expect(state.pendingInterrupts.map((interrupt) => [interrupt.id, interrupt.threadId])).toEqual([
    ["call-1", "t1"],
  ]);
});

test("a finished resume clears pending interrupts and records the tool result", () => {
  const resumed = fold(
    fold(emptyThreadState("t1"), interruptRun),
    events([
      { type: "RUN_STARTED", threadId: "t1", runId: "r2" },
      { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "call-1", content: "deployed to prod" },
      { type: "RUN_FINISHED", threadId: "t1", runId: "r2", outcome: { type: "success" } },
    ]),
  );
  expect(resumed.pendingInterrupts).toEqual([]);
  expect(hasToolResult(resumed, "call-1")).toBe(true);
  expect(hasToolResult(resumed, "call-2")).toBe(false);
});

test("a replayed tool result does not duplicate the message", () => {
  const result = events([
    { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "call-1", content: "ok" },
  ]);
  const state = fold(emptyThreadState("t1"), [...result, ...result]);
  expect(state.messages).toHaveLength(1);
});

test("a messages snapshot replaces the thread and a run error is kept with its code", () => {
  const state = fold(
    emptyThreadState("t1"),
    events([
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u1", role: "user", content: "please deploy to prod" }] },
      { type: "RUN_STARTED", threadId: "t1", runId: "r3" },
      { type: "RUN_ERROR", message: "boom", code: "AGENT_MODEL_CALL_FAILED" },
    ]),
  );
  expect(state.messages).toEqual([{ id: "u1", role: "user", content: "please deploy to prod" }]);
  expect(state.run).toEqual({
    name: "failed",
    runId: "r3",
    code: "AGENT_MODEL_CALL_FAILED",
    message: "boom",
  });
});

test("a replayed run restarts its messages instead of appending the same text twice", () => {
  const once = fold(emptyThreadState("t1"), interruptRun);
  const twice = fold(once, interruptRun);
  expect(twice.messages).toEqual(once.messages);
});

test("deltas never change an earlier state: each gives new objects only along the changed path", () => {
  const before = fold(emptyThreadState("t1"), [
    ...events([
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u0", role: "user", content: "deploy it" }] },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "On it." },
      { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "deploy_change", parentMessageId: "m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"target":' },
    ]),
  ]);
  const frozen = structuredClone(before);
  const afterText = fold(before, events([{ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: " Now." }]));
  const afterArgs = fold(
    afterText,
    events([{ type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '"prod"}' }]),
  );
  expect(before).toEqual(frozen);
  expect(afterText.messages[1]).toMatchObject({ content: "On it. Now." });
  expect(afterArgs.messages[1]).toMatchObject({
    content: "On it. Now.",
    toolCalls: [{ id: "call-1", function: { name: "deploy_change", arguments: '{"target":"prod"}' } }],
  });
  // The untouched user message is shared; the list and the changed message are new.
  expect(afterArgs.messages[0]).toBe(before.messages[0]);
  expect(afterText.messages).not.toBe(before.messages);
  expect(afterText.messages[1]).not.toBe(before.messages[1]);
  expect(afterArgs.run).toBe(before.run);
});

test("a delta that changes nothing gives back the same state", () => {
  const state = fold(emptyThreadState("t1"), events([{ type: "RUN_STARTED", threadId: "t1", runId: "r1" }]));
  const unknownCall = events([{ type: "TOOL_CALL_ARGS", toolCallId: "nowhere", delta: "{}" }]);
  expect(fold(state, unknownCall)).toBe(state);
  const created = fold(state, events([{ type: "TEXT_MESSAGE_CONTENT", messageId: "m9", delta: "hi" }]));
  expect(created.messages).toEqual([{ id: "m9", role: "assistant", content: "hi" }]);
});

test("an event of a type outside FOLDED_TYPES leaves a thread as it is", () => {
  const state = fold(emptyThreadState("t1"), interruptRun);
  const others = Object.values(EventType).filter((type) => !FOLDED_TYPES.has(type));
  expect(others).toContain(EventType.STATE_DELTA);
  for (const type of others) expect(applyEvent(state, { type } as AgUiEvent)).toBe(state);
  for (const type of FOLDED_TYPES) expect(Object.values(EventType)).toContain(type);
});
