import { type AgUiEvent, EventType, type Message } from "../protocol";
import type { PendingInterrupt, RunState, ThreadState } from "./thread-state";

type AssistantMessage = Extract<Message, { role: "assistant" }>;
type ToolCall = NonNullable<AssistantMessage["toolCalls"]>[number];
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Each published list's id → position, handed on to the next draft: placing a message is not a scan. */
const positions = new WeakMap<readonly Message[], Map<string, number>>();

/** The event types `apply` reads: any other leaves a thread as it is, so a mirror needs only these. */
export const FOLDED_TYPES: ReadonlySet<string> = new Set<string>([
  ...[EventType.TEXT_MESSAGE_START, EventType.TEXT_MESSAGE_CONTENT, EventType.TOOL_CALL_START],
  ...[EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_RESULT, EventType.MESSAGES_SNAPSHOT],
  ...[EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR],
]);

/**
 * A thread's next state, folded from its last published one in place: a chunk
 * of deltas copies the message list and each message it touches once, not once
 * per event. What the draft copied (`#owned`) it may write until `finish()`;
 * what it handed out is never written again. The same events from the same
 * state give the same result however they are split between drafts.
 */
export class ThreadDraft {
  #base: ThreadState;
  #messages: Message[] | undefined;
  #owned = new Set<object>();
  /** Where each id of `messages` first is; built on the first lookup when no draft handed it on. */
  #ids: Map<string, number> | undefined;
  #run: RunState;
  #pendingInterrupts: readonly PendingInterrupt[];
  #loaded: boolean;
  #changed = false;

  constructor(base: ThreadState) {
    this.#base = base;
    this.#run = base.run;
    this.#pendingInterrupts = base.pendingInterrupts;
    this.#loaded = base.loaded;
    // Taken, not shared: a second draft from the same state builds its own.
    this.#ids = positions.get(base.messages);
    positions.delete(base.messages);
  }

  get changed(): boolean {
    return this.#changed;
  }

  /** The state with every event so far; the draft starts over from it. */
  finish(): ThreadState {
    const { messages } = this;
    if (this.#ids) positions.set(messages, this.#ids);
    if (!this.#changed) return this.#base;
    const pendingInterrupts = this.#pendingInterrupts;
    this.#base = { ...this.#base, messages, run: this.#run, pendingInterrupts, loaded: this.#loaded };
    this.#messages = undefined;
    this.#owned = new Set();
    this.#changed = false;
    return this.#base;
  }

  get messages(): readonly Message[] {
    return this.#messages ?? this.#base.messages;
  }

  apply(event: AgUiEvent): void {
    const type = event.type;
    if (type === EventType.TEXT_MESSAGE_CONTENT) this.#appendText(event.messageId, event.delta);
    else if (type === EventType.TOOL_CALL_ARGS) this.#appendToolArgs(event.toolCallId, event.delta);
    else if (type === EventType.TEXT_MESSAGE_START) this.#restartText(event.messageId, event.role);
    else if (type === EventType.TOOL_CALL_START) {
      const parent = event.parentMessageId ?? `assistant-${event.toolCallId}`;
      this.#startToolCall(parent, event.toolCallId, event.toolCallName);
    } else if (type === EventType.TOOL_CALL_RESULT && this.#find(event.messageId) === -1) {
      const { messageId: id, toolCallId, content } = event;
      this.#append({ id, role: "tool", toolCallId, content });
    } else if (type === EventType.MESSAGES_SNAPSHOT) {
      // The event's messages are not ours to write: the list is copied, each message on first change.
      this.#messages = [...event.messages];
      this.#owned = new Set([this.#messages]);
      this.#ids = undefined;
      this.#loaded = this.#changed = true;
    } else if (type === EventType.RUN_STARTED) {
      this.#loaded = true;
      this.#setRun({ name: "running", runId: event.runId });
    } else if (type === EventType.RUN_FINISHED) {
      const { outcome, runId } = event;
      const threadId = this.#base.threadId;
      const interrupted = outcome?.type === "interrupt";
      this.#pendingInterrupts = interrupted ? outcome.interrupts.map((one) => ({ ...one, threadId })) : [];
      this.#loaded = true;
      this.#setRun({ name: interrupted ? "interrupted" : "finished", runId });
    } else if (type === EventType.RUN_ERROR) {
      const run = this.#run;
      const runId = run.name === "idle" || run.name === "failed" ? null : run.runId;
      this.#setRun({ name: "failed", runId, code: event.code ?? null, message: event.message });
    }
  }

  #setRun(run: RunState): void {
    this.#run = run;
    this.#changed = true;
  }

  /** The position of the first message with that id, or -1. */
  #find(id: string): number {
    if (!this.#ids) {
      this.#ids = new Map();
      for (const [at, message] of this.messages.entries()) this.#index(message.id, at);
    }
    return this.#ids.get(id) ?? -1;
  }

  #index(id: string, at: number): void {
    if (!this.#ids?.has(id)) this.#ids?.set(id, at);
  }

  /** The list, copied once per draft. */
  #list(): Message[] {
    if (!this.#messages || !this.#owned.has(this.#messages)) {
      this.#messages = this.messages.slice();
      this.#owned.add(this.#messages);
    }
    this.#changed = true;
    return this.#messages;
  }

  #append(message: Message): void {
    this.#index(message.id, this.#list().push(message) - 1);
    this.#owned.add(message);
  }

  /** The message at `position`, copied once per draft, to write to. */
  #own<T extends Message>(position: number): Writable<T> {
    const list = this.#list();
    const message = list[position] as T;
    if (this.#owned.has(message)) return message;
    const copy = { ...message };
    list[position] = copy;
    this.#owned.add(copy);
    return copy;
  }

  /** A replayed run streams its text again from the start. */
  #restartText(id: string, role: string | undefined): void {
    const at = this.#find(id);
    if (at === -1) {
      this.#append({ id, role: role === "user" ? role : "assistant", content: "" });
    } else if (["assistant", "user"].includes((this.messages[at] as Message).role)) {
      (this.#own(at) as { content?: unknown }).content = "";
    }
  }

  /** The assistant's text, or the person's own message as another tab streams it. */
  #appendText(id: string, delta: string): void {
    const at = this.#find(id);
    if (at === -1) {
      this.#append({ id, role: "assistant", content: delta });
      return;
    }
    const message = this.messages[at] as Message;
    if (message.role !== "assistant" && (message.role !== "user" || typeof message.content !== "string"))
      return;
    const owned = this.#own(at) as { content?: string };
    owned.content = (owned.content ?? "") + delta;
  }

  #startToolCall(parentId: string, toolCallId: string, name: string): void {
    let at = this.#find(parentId);
    if (at === -1) {
      this.#append({ id: parentId, role: "assistant", content: "" });
      at = this.messages.length - 1;
    }
    if ((this.messages[at] as Message).role !== "assistant") return;
    const existing = (this.messages[at] as AssistantMessage).toolCalls?.findIndex((c) => c.id === toolCallId);
    if (existing !== undefined && existing !== -1) {
      // Replayed: the arguments stream again from the start.
      this.#setArgs(at, existing, () => "");
      return;
    }
    const call: ToolCall = { id: toolCallId, type: "function", function: { name, arguments: "" } };
    this.#owned.add(call);
    this.#calls(at).push(call);
  }

  #appendToolArgs(toolCallId: string, delta: string): void {
    const list = this.messages;
    for (let at = list.length - 1; at >= 0; at--) {
      const message = list[at] as Message;
      const index =
        message.role === "assistant" ? message.toolCalls?.findIndex((c) => c.id === toolCallId) : -1;
      if (index === undefined || index === -1) continue;
      this.#setArgs(at, index, (args) => args + delta);
      return;
    }
  }

  /** The tool calls of the assistant message at `at`, copied once per draft. */
  #calls(at: number): ToolCall[] {
    const message = this.#own<AssistantMessage>(at);
    if (!message.toolCalls || !this.#owned.has(message.toolCalls)) {
      message.toolCalls = message.toolCalls?.slice() ?? [];
      this.#owned.add(message.toolCalls);
    }
    return message.toolCalls as ToolCall[];
  }

  #setArgs(at: number, index: number, next: (args: string) => string): void {
    const calls = this.#calls(at);
    let call = calls[index] as ToolCall;
    if (!this.#owned.has(call)) {
      call = { ...call, function: { ...call.function } };
      this.#owned.add(call);
      calls[index] = call;
    }
    (call.function as { arguments: string }).arguments = next(call.function.arguments);
  }
}

/** Folds one event into a thread, purely; returns `state` itself when nothing changed. */
export function applyEvent(state: ThreadState, event: AgUiEvent): ThreadState {
  const draft = new ThreadDraft(state);
  draft.apply(event);
  return draft.finish();
}

/** Whether the thread shows a result for a tool call: the evidence that an approved tool ran. */
export function hasToolResult(state: ThreadState, toolCallId: string): boolean {
  return state.messages.some((message) => message.role === "tool" && message.toolCallId === toolCallId);
}
