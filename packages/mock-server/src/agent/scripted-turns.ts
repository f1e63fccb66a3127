import type { AgUiEvent, Interrupt, Message, RunAgentInput } from "@agui-outbox/core/protocol";
import { isOpen } from "@agui-outbox/server";
import {
  type MockState,
  type Occurrence,
  OccurrenceState,
  occurrenceKey,
  type ThreadRecord,
} from "../state/mock-state";
import {
  asksToDeploy,
  DEPLOY_TOOL,
  deployIntro,
  deployIntroMany,
  deployQuestion,
  deployTargets,
  SMALL_TALK_TEXT,
} from "./deploy-script";

/** What a scripted turn needs from the server that runs it. */
export interface TurnContext {
  readonly state: MockState;
  readonly now: number;
  readonly randomUUID: () => string;
  /** Sends one event to the run's stream (and its log, where the mode keeps one). */
  readonly emit: (event: AgUiEvent) => void;
}

/** How a mode words its approval interrupts. */
export interface InterruptStyle {
  readonly responseSchema: Record<string, unknown>;
  /** Lifetime published as `expiresAt`; undefined = never expires. */
  readonly ttlMs: number | undefined;
  /** The interrupt's id for a tool call; the tool call's own id when absent. */
  readonly interruptId?: (toolCallId: string) => string;
}

export function threadOf(state: MockState, threadId: string, now: number): ThreadRecord {
  let thread = state.threads[threadId];
  if (thread === undefined) {
    thread = { threadId, messages: [], createdAt: now };
    state.threads[threadId] = thread;
  }
  return thread;
}

export function threadOccurrences(state: MockState, threadId: string): Occurrence[] {
  return Object.values(state.occurrences).filter((occurrence) => occurrence.threadId === threadId);
}

export function emitText(emit: (event: AgUiEvent) => void, messageId: string, text: string): void {
  emit({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as AgUiEvent);
  emit({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: text } as AgUiEvent);
  emit({ type: "TEXT_MESSAGE_END", messageId } as AgUiEvent);
}

export function lastUserText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return message.content
      .map((part) => (part.type === "text" ? part.text : ""))
      .join(" ")
      .trim();
  }
  return "";
}

/**
 * A user turn after `RUN_STARTED`: records the new messages, then either a
 * plain reply or the deploy tool call ending in an approval interrupt. Emits
 * the terminal `RUN_FINISHED`.
 */
export function scriptUserTurn(ctx: TurnContext, input: RunAgentInput, style: InterruptStyle): void {
  const { threadId, runId } = input;
  const thread = threadOf(ctx.state, threadId, ctx.now);
  const known = new Set(thread.messages.map((message) => message.id));
  for (const message of input.messages) if (!known.has(message.id)) thread.messages.push(message);
  const text = lastUserText(input.messages);
  const messageId = ctx.randomUUID();

  if (!asksToDeploy(text)) {
    emitText(ctx.emit, messageId, SMALL_TALK_TEXT);
    thread.messages.push({ id: messageId, role: "assistant", content: SMALL_TALK_TEXT });
    ctx.emit({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } } as AgUiEvent);
    return;
  }

  const targets = deployTargets(text);
  const intro = targets.length === 1 ? deployIntro(targets[0] ?? "staging") : deployIntroMany(targets);
  emitText(ctx.emit, messageId, intro);
  const expiresAt = style.ttlMs === undefined ? Number.POSITIVE_INFINITY : ctx.now + style.ttlMs;
  const interrupts: Interrupt[] = [];
  const toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
  for (const target of targets) {
    const args = { target };
    const argsJson = JSON.stringify(args);
    const toolCallId = `call_${ctx.randomUUID()}`;
    ctx.emit({
      type: "TOOL_CALL_START",
      toolCallId,
      toolCallName: DEPLOY_TOOL,
      parentMessageId: messageId,
    } as AgUiEvent);
    ctx.emit({ type: "TOOL_CALL_ARGS", toolCallId, delta: argsJson } as AgUiEvent);
    ctx.emit({ type: "TOOL_CALL_END", toolCallId } as AgUiEvent);
    const interruptId = style.interruptId?.(toolCallId) ?? toolCallId;
    const interrupt: Interrupt = {
      id: interruptId,
      reason: "tool_call",
      toolCallId,
      message: deployQuestion(target),
      responseSchema: style.responseSchema,
      ...(style.ttlMs === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
    };
    interrupts.push(interrupt);
    toolCalls.push({
      id: toolCallId,
      type: "function",
      function: { name: DEPLOY_TOOL, arguments: argsJson },
    });
    ctx.state.occurrences[occurrenceKey(threadId, interruptId)] = {
      threadId,
      interruptId,
      toolCallId,
      toolName: DEPLOY_TOOL,
      args,
      interrupt,
      createdAt: ctx.now,
      // JSON has no Infinity: a never-expiring interrupt is stored with the largest date.
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : 8.64e15,
      state: OccurrenceState.pending,
      claim: null,
      decision: null,
      result: null,
      outcome: null,
    };
  }
  thread.messages.push({ id: messageId, role: "assistant", content: intro, toolCalls });
  ctx.emit({
    type: "RUN_FINISHED",
    threadId,
    runId,
    outcome: { type: "interrupt", interrupts },
  } as AgUiEvent);
}

/**
 * Hydration after `RUN_STARTED`: the thread's messages, then `RUN_FINISHED`
 * with its open interrupts (but those `hidden` names: a server that keeps a
 * question open without showing it). Changes nothing.
 */
export function scriptHydration(
  ctx: TurnContext,
  threadId: string,
  runId: string,
  hidden: (occurrence: Occurrence) => boolean = () => false,
): void {
  const thread = ctx.state.threads[threadId];
  const open = threadOccurrences(ctx.state, threadId).filter(
    (occurrence) => isOpen(occurrence, ctx.now) && !hidden(occurrence),
  );
  ctx.emit({ type: "MESSAGES_SNAPSHOT", messages: thread?.messages ?? [] } as AgUiEvent);
  ctx.emit({
    type: "RUN_FINISHED",
    threadId,
    runId,
    outcome:
      open.length > 0
        ? { type: "interrupt", interrupts: open.map((occurrence) => occurrence.interrupt) }
        : { type: "success" },
  } as AgUiEvent);
}
