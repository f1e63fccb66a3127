import type { AgUiEvent, Message } from "../protocol";
import type { PendingInterrupt, ThreadState } from "./thread-state";

type AssistantMessage = Extract<Message, { role: "assistant" }>;
type UserMessage = Extract<Message, { role: "user" }>;

// Deltas are most of a stream, so the helpers below keep one cheap: the list is
// copied once and only when a message changed (the same list otherwise, so
// subscribers are not woken for nothing), and a changed object is copied and
// then has its one field set, which measured several times faster than a
// spread that also overrides one of the keys it copies.

/** `update` applied to every message; a new list only when one of them changed. */
function updateMessages(
  messages: readonly Message[],
  update: (message: Message) => Message,
): readonly Message[] {
  let result: Message[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    const updated = update(message);
    if (updated === message) continue;
    result ??= messages.slice();
    result[index] = updated;
  }
  return result ?? messages;
}

function replaceMessage(
  messages: readonly Message[],
  id: string,
  update: (message: Message) => Message,
): readonly Message[] {
  return updateMessages(messages, (message) => (message.id === id ? update(message) : message));
}

function withMessages(state: ThreadState, messages: readonly Message[]): ThreadState {
  if (messages === state.messages) return state;
  const { threadId, run, pendingInterrupts, loaded } = state;
  return { threadId, messages, run, pendingInterrupts, loaded };
}

function upsertAssistant(messages: readonly Message[], id: string): readonly Message[] {
  if (messages.some((message) => message.id === id)) return messages;
  const created: AssistantMessage = { id, role: "assistant", content: "" };
  return [...messages, created];
}

/** Streamed text is the assistant's, or the person's own message as another tab shows it. */
function upsertText(messages: readonly Message[], id: string, role: string | undefined): readonly Message[] {
  if (role !== "user" || messages.some((message) => message.id === id)) return upsertAssistant(messages, id);
  const created: UserMessage = { id, role: "user", content: "" };
  return [...messages, created];
}

function appendText(message: Message, delta: string): Message {
  if (message.role !== "assistant" && (message.role !== "user" || typeof message.content !== "string")) {
    return message;
  }
  const appended = { ...message };
  appended.content = (message.content ?? "") + delta;
  return appended;
}

// A replayed run (a duplicate answered from the server's outcome record, or a
// retry that re-sends a message) starts a message it already sent: start it over
// rather than append the same text twice.
function restartText(messages: readonly Message[], id: string, role: string | undefined): readonly Message[] {
  const present = upsertText(messages, id, role);
  return replaceMessage(present, id, (message) =>
    message.role === "assistant" || message.role === "user" ? { ...message, content: "" } : message,
  );
}

function appendToolCall(
  messages: readonly Message[],
  parentId: string,
  toolCallId: string,
  name: string,
): readonly Message[] {
  const withParent = upsertAssistant(messages, parentId);
  return replaceMessage(withParent, parentId, (message) => {
    if (message.role !== "assistant") return message;
    const toolCalls = message.toolCalls ?? [];
    if (toolCalls.some((call) => call.id === toolCallId)) {
      // Replayed: the arguments are streamed again from the start.
      return {
        ...message,
        toolCalls: toolCalls.map((call) =>
          call.id === toolCallId ? { ...call, function: { ...call.function, arguments: "" } } : call,
        ),
      };
    }
    return {
      ...message,
      toolCalls: [...toolCalls, { id: toolCallId, type: "function", function: { name, arguments: "" } }],
    };
  });
}

function appendToolArgs(messages: readonly Message[], toolCallId: string, delta: string): readonly Message[] {
  return updateMessages(messages, (message) => {
    if (message.role !== "assistant" || !message.toolCalls?.some((call) => call.id === toolCallId))
      return message;
    return {
      ...message,
      toolCalls: message.toolCalls.map((call) =>
        call.id === toolCallId
          ? { ...call, function: { ...call.function, arguments: call.function.arguments + delta } }
          : call,
      ),
    };
  });
}

/**
 * Folds one validated AG-UI event into a thread. Pure: the same events in the
 * same order always give the same state, which is what makes a re-attach that
 * replays from a cursor safe (the caller drops events at or below the cursor).
 */
export function applyEvent(state: ThreadState, event: AgUiEvent): ThreadState {
  switch (event.type) {
    case "RUN_STARTED":
      return { ...state, loaded: true, run: { name: "running", runId: event.runId } };
    case "TEXT_MESSAGE_START":
      return { ...state, messages: restartText(state.messages, event.messageId, event.role) };
    case "TEXT_MESSAGE_CONTENT": {
      const messages = upsertAssistant(state.messages, event.messageId);
      return withMessages(
        state,
        replaceMessage(messages, event.messageId, (message) => appendText(message, event.delta)),
      );
    }
    case "TOOL_CALL_START":
      return {
        ...state,
        messages: appendToolCall(
          state.messages,
          event.parentMessageId ?? `assistant-${event.toolCallId}`,
          event.toolCallId,
          event.toolCallName,
        ),
      };
    case "TOOL_CALL_ARGS":
      return withMessages(state, appendToolArgs(state.messages, event.toolCallId, event.delta));
    case "TOOL_CALL_RESULT": {
      if (state.messages.some((message) => message.id === event.messageId)) return state;
      const result: Message = {
        id: event.messageId,
        role: "tool",
        toolCallId: event.toolCallId,
        content: event.content,
      };
      return { ...state, messages: [...state.messages, result] };
    }
    case "MESSAGES_SNAPSHOT":
      return { ...state, loaded: true, messages: event.messages };
    case "RUN_FINISHED": {
      const outcome = event.outcome;
      if (outcome?.type === "interrupt") {
        const pending: PendingInterrupt[] = outcome.interrupts.map((interrupt) => ({
          ...interrupt,
          threadId: state.threadId,
        }));
        return {
          ...state,
          loaded: true,
          pendingInterrupts: pending,
          run: { name: "interrupted", runId: event.runId },
        };
      }
      return { ...state, loaded: true, pendingInterrupts: [], run: { name: "finished", runId: event.runId } };
    }
    case "RUN_ERROR":
      return {
        ...state,
        run: {
          name: "failed",
          runId: state.run.name === "idle" || state.run.name === "failed" ? null : state.run.runId,
          code: event.code ?? null,
          message: event.message,
        },
      };
    default:
      return state;
  }
}

/** Whether the thread shows a result for a tool call: the evidence that an approved tool ran. */
export function hasToolResult(state: ThreadState, toolCallId: string): boolean {
  return state.messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId);
}
