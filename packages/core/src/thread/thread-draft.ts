import { type AgUiEvent, EventType, type Message } from "../protocol";
import { MessageIndex } from "./message-index";
import type { PendingInterrupt, RunState, ThreadState } from "./thread-state";

type AssistantMessage = Extract<Message, { role: "assistant" }>;
type ToolCall = NonNullable<AssistantMessage["toolCalls"]>[number];
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A thread's next state, built from its last published one by folding events
 * in place. Deltas are most of a stream, so a network chunk of them costs one
 * copy of the message list and of each message it touches, not one per event:
 * the draft copies a list or an object the first time it changes it (remembered
 * in `#owned`) and writes to the copy after that. `finish()` seals the draft
 * into an immutable state; what it handed out is never written again.
 *
 * Pure in effect: the same events in the same order from the same state give
 * the same result, however they are split between drafts.
 */
export class ThreadDraft {
  #base: ThreadState;
  /** The draft's own copy of the message list, once one was needed. */
  #messages: Message[] | undefined;
  /** Lists and objects this draft created: safe to write until `finish()`. */
  #owned = new Set<object>();
  #run: RunState;
  #pendingInterrupts: readonly PendingInterrupt[];
  #loaded: boolean;
  #changed = false;
  readonly #index: MessageIndex;

  constructor(base: ThreadState, index: MessageIndex = new MessageIndex()) {
    this.#base = base;
    this.#run = base.run;
    this.#pendingInterrupts = base.pendingInterrupts;
    this.#loaded = base.loaded;
    this.#index = index;
  }

  get changed(): boolean {
    return this.#changed;
  }

  /** The state with every event so far; the draft starts over from it. */
  finish(): ThreadState {
    if (!this.#changed) return this.#base;
    const state: ThreadState = {
      ...this.#base,
      messages: this.#messages ?? this.#base.messages,
      run: this.#run,
      pendingInterrupts: this.#pendingInterrupts,
      loaded: this.#loaded,
    };
    this.#base = state;
    this.#messages = undefined;
    this.#owned = new Set();
    this.#changed = false;
    return state;
  }

  apply(event: AgUiEvent): void {
    switch (event.type) {
      case EventType.RUN_STARTED:
        this.#setRun({ name: "running", runId: event.runId });
        this.#loaded = true;
        return;
      case EventType.TEXT_MESSAGE_START:
        this.#restartText(event.messageId, event.role);
        return;
      case EventType.TEXT_MESSAGE_CONTENT:
        this.#appendText(event.messageId, event.delta);
        return;
      case EventType.TOOL_CALL_START:
        this.#startToolCall(
          event.parentMessageId ?? `assistant-${event.toolCallId}`,
          event.toolCallId,
          event.toolCallName,
        );
        return;
      case EventType.TOOL_CALL_ARGS:
        this.#appendToolArgs(event.toolCallId, event.delta);
        return;
      case EventType.TOOL_CALL_RESULT:
        if (this.#find(event.messageId) !== -1) return;
        this.#append({
          id: event.messageId,
          role: "tool",
          toolCallId: event.toolCallId,
          content: event.content,
        });
        return;
      case EventType.MESSAGES_SNAPSHOT:
        // The event's messages are not the draft's to write: copied on first change.
        this.#messages = [...event.messages];
        this.#owned = new Set([this.#messages]);
        this.#loaded = true;
        this.#changed = true;
        return;
      case EventType.RUN_FINISHED: {
        const outcome = event.outcome;
        this.#loaded = true;
        if (outcome?.type === "interrupt") {
          const threadId = this.#base.threadId;
          this.#pendingInterrupts = outcome.interrupts.map((interrupt) => ({ ...interrupt, threadId }));
          this.#setRun({ name: "interrupted", runId: event.runId });
          return;
        }
        this.#pendingInterrupts = [];
        this.#setRun({ name: "finished", runId: event.runId });
        return;
      }
      case EventType.RUN_ERROR: {
        const run = this.#run;
        this.#setRun({
          name: "failed",
          runId: run.name === "idle" || run.name === "failed" ? null : run.runId,
          code: event.code ?? null,
          message: event.message,
        });
        return;
      }
      default:
        return;
    }
  }

  #setRun(run: RunState): void {
    this.#run = run;
    this.#changed = true;
  }

  #current(): readonly Message[] {
    return this.#messages ?? this.#base.messages;
  }

  #find(id: string): number {
    return this.#index.find(this.#current(), id);
  }

  /** The list, copied once per draft. */
  #list(): Message[] {
    let list = this.#messages;
    if (!list || !this.#owned.has(list)) {
      const original = this.#current();
      list = original.slice();
      this.#index.follow(original, list);
      this.#messages = list;
      this.#owned.add(list);
    }
    this.#changed = true;
    return list;
  }

  #append(message: Message): void {
    const list = this.#list();
    list.push(message);
    this.#owned.add(message);
    this.#index.added(list, message.id, list.length - 1);
  }

  /** The message at `position`, copied once per draft, to write to. */
  #own(position: number): Writable<Message> {
    const list = this.#list();
    const message = list[position] as Message;
    if (this.#owned.has(message)) return message;
    // Copied, then written: measured several times faster than a spread that
    // also overrides one of the keys it copies.
    const copy = { ...message };
    list[position] = copy;
    this.#owned.add(copy);
    return copy;
  }

  /** A streamed message starts over: a replayed run sends the text again from the start. */
  #restartText(id: string, role: string | undefined): void {
    const at = this.#find(id);
    if (at === -1) {
      this.#append(
        role === "user" ? { id, role: "user", content: "" } : { id, role: "assistant", content: "" },
      );
      return;
    }
    const message = this.#current()[at] as Message;
    if (message.role === "assistant" || message.role === "user") {
      (this.#own(at) as { content?: unknown }).content = "";
    }
  }

  /** Streamed text is the assistant's, or the person's own message as another tab shows it. */
  #appendText(id: string, delta: string): void {
    const at = this.#find(id);
    if (at === -1) {
      this.#append({ id, role: "assistant", content: delta });
      return;
    }
    const message = this.#current()[at] as Message;
    if (message.role !== "assistant" && (message.role !== "user" || typeof message.content !== "string"))
      return;
    const owned = this.#own(at) as { content?: string };
    owned.content = (owned.content ?? "") + delta;
  }

  #startToolCall(parentId: string, toolCallId: string, name: string): void {
    let at = this.#find(parentId);
    if (at === -1) {
      this.#append({ id: parentId, role: "assistant", content: "" });
      at = this.#current().length - 1;
    }
    if ((this.#current()[at] as Message).role !== "assistant") return;
    const calls = this.#ownCalls(this.#own(at) as Writable<AssistantMessage>);
    const existing = calls.findIndex((call) => call.id === toolCallId);
    if (existing !== -1) {
      // Replayed: the arguments are streamed again from the start.
      this.#ownCall(calls, existing).function.arguments = "";
      return;
    }
    const call: ToolCall = { id: toolCallId, type: "function", function: { name, arguments: "" } };
    this.#owned.add(call);
    calls.push(call);
  }

  #appendToolArgs(toolCallId: string, delta: string): void {
    const list = this.#current();
    // Newest first: arguments stream into the call just started.
    for (let position = list.length - 1; position >= 0; position--) {
      const message = list[position] as Message;
      if (message.role !== "assistant" || !message.toolCalls) continue;
      const index = message.toolCalls.findIndex((call) => call.id === toolCallId);
      if (index === -1) continue;
      const calls = this.#ownCalls(this.#own(position) as Writable<AssistantMessage>);
      const call = this.#ownCall(calls, index);
      call.function.arguments += delta;
      return;
    }
  }

  #ownCalls(message: Writable<AssistantMessage>): ToolCall[] {
    const calls = message.toolCalls;
    if (calls && this.#owned.has(calls)) return calls as ToolCall[];
    const copy = calls ? calls.slice() : [];
    this.#owned.add(copy);
    message.toolCalls = copy;
    return copy;
  }

  #ownCall(calls: ToolCall[], index: number): { function: { arguments: string } } {
    const call = calls[index] as ToolCall;
    if (this.#owned.has(call)) return call;
    const copy = { ...call, function: { ...call.function } };
    this.#owned.add(copy);
    calls[index] = copy;
    return copy;
  }
}
