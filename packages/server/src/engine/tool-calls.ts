import type { AgUiEvent, Message } from "@agui-outbox/core/protocol";

/** A tool call as its events build it up: the name, then the argument text in deltas. */
export interface StreamedToolCall {
  name: string;
  args: string;
}

/** Folds one event into the calls seen so far (by `toolCallId`). */
export function trackToolCall(calls: Map<string, StreamedToolCall>, event: AgUiEvent): void {
  const e = event as { type: string; toolCallId?: string; toolCallName?: string; delta?: string };
  if (e.toolCallId === undefined) return;
  if (e.type === "TOOL_CALL_START" && e.toolCallName !== undefined) {
    calls.set(e.toolCallId, { name: e.toolCallName, args: "" });
  } else if (e.type === "TOOL_CALL_ARGS" && e.delta !== undefined) {
    const call = calls.get(e.toolCallId);
    if (call !== undefined) call.args += e.delta;
  }
}

/** A call's arguments as an object; text that is not a JSON object counts as none. */
export function parseArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The tool calls a model response streamed, in order. */
export function toolCallsOf(
  events: readonly AgUiEvent[],
): { toolCallId: string; toolName: string; args: Record<string, unknown> }[] {
  const calls = new Map<string, StreamedToolCall>();
  for (const event of events) trackToolCall(calls, event);
  return [...calls].map(([toolCallId, call]) => ({
    toolCallId,
    toolName: call.name,
    args: parseArgs(call.args),
  }));
}

/** The assistant message a model response streamed (its text and tool calls), as the next turn's input holds it. */
export function assistantMessageOf(
  events: readonly AgUiEvent[],
  randomUUID: () => string,
): Message | undefined {
  let id: string | undefined;
  let content = "";
  for (const event of events) {
    const e = event as { type: string; messageId?: string; delta?: string };
    if (e.type === "TEXT_MESSAGE_START") id ??= e.messageId;
    if (e.type === "TEXT_MESSAGE_CONTENT") content += e.delta ?? "";
  }
  const calls = new Map<string, StreamedToolCall>();
  for (const event of events) trackToolCall(calls, event);
  if (id === undefined && calls.size === 0) return undefined;
  return {
    id: id ?? randomUUID(),
    role: "assistant",
    content,
    ...(calls.size === 0
      ? {}
      : {
          toolCalls: [...calls].map(([toolCallId, call]) => ({
            id: toolCallId,
            type: "function",
            function: { name: call.name, arguments: call.args },
          })),
        }),
  } as Message;
}
