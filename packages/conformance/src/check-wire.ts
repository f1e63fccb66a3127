// The wire helpers the server checks share: hand-built requests and a bare SSE reader,
// independent of the SDK, so the checks judge servers, not our client.
import { randomUUID } from "node:crypto";
import { AgentRoute, Header, MetadataKey } from "@agui-outbox/core/protocol";
import { createParser } from "eventsource-parser";
import { CheckSkipped } from "./check-skipped";

/** A server under test and its controls. */
export interface CheckTarget {
  /** Base URL; the AG-UI endpoint is `${url}/agent` unless {@link agentUrl} says otherwise. */
  readonly url: string;
  /**
   * The AG-UI endpoint itself, for a server that does not mount it at `/agent`.
   * @default `${url}/agent`
   */
  readonly agentUrl?: string;
  /** The tool's executions as the server records them; without it, counts are not observed. */
  readonly ledger?: () => Promise<ReadonlyArray<{ readonly threadId: string }>>;
  /** Arms faults for one thread; without it, the checks that need faults are skipped. */
  readonly chaos?: (faults: readonly Record<string, unknown>[]) => Promise<void>;
  /**
   * The user messages that make the server ask: one approval, and two in one turn.
   * @default { one: "please deploy to prod", two: "deploy to prod and staging" }
   */
  readonly ask?: { readonly one?: string | undefined; readonly two?: string | undefined };
}

/** Where the target's AG-UI endpoint is. */
export const agentEndpoint = (target: CheckTarget) => target.agentUrl ?? `${target.url}/agent`;

/** Arms faults, or skips the check where the target has no fault hook. */
export async function armFaults(target: CheckTarget, faults: readonly Record<string, unknown>[]) {
  if (target.chaos === undefined) throw new CheckSkipped("needs --chaos");
  await target.chaos(faults);
}

export interface SseFrame {
  readonly id: string | undefined;
  readonly event: Record<string, unknown>;
  /** When the frame arrived (`performance.now()`), for checks about what comes before what. */
  readonly at: number;
}

export interface RunReply {
  readonly status: number;
  readonly frames: readonly SseFrame[];
  readonly body: string;
}

/**
 * Events that say nothing about the run's lifecycle, the tool or the model's turn: raw
 * framework events, state snapshots and steps (ag-ui-langgraph sends many of each).
 */
const PLUMBING = new Set(["RAW", "STATE_SNAPSHOT", "STATE_DELTA", "STEP_STARTED", "STEP_FINISHED", "CUSTOM"]);
export const types = (reply: RunReply) =>
  reply.frames.map((frame) => String(frame.event.type)).filter((type) => !PLUMBING.has(type));
export const runError = (reply: RunReply) =>
  reply.frames.find((frame) => frame.event.type === "RUN_ERROR")?.event;
export const finished = (reply: RunReply) =>
  reply.frames.find((frame) => frame.event.type === "RUN_FINISHED")?.event;
export const codeOf = (reply: RunReply) =>
  reply.status >= 400
    ? `HTTP ${reply.status}`
    : runError(reply) === undefined
      ? "no error"
      : String(runError(reply)?.code ?? "RUN_ERROR without a code");
export const metadataOf = (event: Record<string, unknown> | undefined, key: string) =>
  (event?.metadata as Record<string, Record<string, unknown>> | undefined)?.[key];

/** Reads an SSE response to its end (or until the connection breaks). */
export async function readFrames(response: Response): Promise<{ frames: SseFrame[]; body: string }> {
  const frames: SseFrame[] = [];
  let body = "";
  const parser = createParser({
    onEvent: (message) =>
      frames.push({ id: message.id, event: JSON.parse(message.data), at: performance.now() }),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body ?? []) {
      const text = decoder.decode(chunk, { stream: true });
      body += text;
      parser.feed(text);
    }
  } catch {
    // A dropped connection ends the reading; the frames so far are the answer.
  }
  return { frames, body };
}

export async function post(
  target: CheckTarget,
  input: Record<string, unknown>,
  key?: string,
): Promise<RunReply> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (key) headers[Header.idempotencyKey] = key;
  const response = await fetch(`${agentEndpoint(target)}${AgentRoute.run}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ state: {}, messages: [], tools: [], context: [], ...input }),
  });
  const isStream = response.headers.get("content-type")?.includes("text/event-stream");
  if (!isStream) return { status: response.status, frames: [], body: await response.text() };
  return { status: response.status, ...(await readFrames(response)) };
}

export interface Asked {
  readonly threadId: string;
  readonly interruptId: string;
  readonly responseSchema: { readonly properties?: Record<string, unknown> };
  readonly reply: RunReply;
}

/**
 * A check's threads are `check-<label>-<8 hex>`, new on every run; an observation that
 * quotes one (an interrupt id, a tool message) says `<threadId>` instead, so the table
 * reads the same on every run.
 */
export function withoutThreadIds(observed: string): string {
  return observed.replace(/check-[a-z]+-[0-9a-f]{8}\b/g, "<threadId>");
}

export async function askToDeploy(target: CheckTarget, label: string): Promise<Asked> {
  const threadId = `check-${label}-${randomUUID().slice(0, 8)}`;
  const reply = await post(target, {
    threadId,
    runId: randomUUID(),
    messages: [{ id: randomUUID(), role: "user", content: target.ask?.one ?? "please deploy to prod" }],
  });
  const outcome = finished(reply)?.outcome as { interrupts?: Array<Record<string, unknown>> } | undefined;
  const interrupt = outcome?.interrupts?.[0];
  if (!interrupt)
    throw new Error(`${label}: the server did not ask for approval (${types(reply).join(", ")})`);
  return {
    threadId,
    interruptId: String(interrupt.id),
    responseSchema: (interrupt.responseSchema ?? {}) as Asked["responseSchema"],
    reply,
  };
}

/** An answer in the form the interrupt's schema asks for (`accepted` only where declared). */
export function approval(asked: Asked, approved: boolean): Record<string, unknown> {
  const declaresAccepted = asked.responseSchema.properties?.accepted !== undefined;
  return declaresAccepted ? { approved, accepted: approved } : { approved };
}

export function resume(asked: Asked, payload: Record<string, unknown>, key: string, runId = randomUUID()) {
  return {
    threadId: asked.threadId,
    runId,
    resume: [
      {
        interruptId: asked.interruptId,
        status: "resolved",
        payload,
        metadata: { [MetadataKey.idempotencyKey]: key },
      },
    ],
  };
}

/** A new question, answered under an id the server never asked (a stale or made-up answer). */
export async function answerNeverAsked(target: CheckTarget, label: string): Promise<RunReply> {
  const asked = await askToDeploy(target, label);
  const key = randomUUID();
  return post(target, resume({ ...asked, interruptId: "never-asked" }, { approved: true }, key), key);
}

/** The thread's executions; a check whose verdict rests on them is not observed without a ledger. */
export async function executions(target: CheckTarget, threadId: string): Promise<number> {
  if (target.ledger === undefined) throw new CheckSkipped("not observed: needs --ledger");
  return (await target.ledger()).filter((execution) => execution.threadId === threadId).length;
}

/**
 * The executions of a run whose connection was cut: a server may go on with the run after
 * the cut, so the ledger is read again until it shows one, for at most `withinMs`.
 */
export async function executionsAfterCut(
  target: CheckTarget,
  threadId: string,
  withinMs = 5_000,
): Promise<number> {
  const deadline = Date.now() + withinMs;
  let count = await executions(target, threadId);
  while (count === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = await executions(target, threadId);
  }
  return count;
}

/** The executions as an observation's words, where the verdict does not rest on them. */
export async function executionsSeen(target: CheckTarget, threadId: string): Promise<string> {
  if (target.ledger === undefined) return "executions not observed";
  return `${await executions(target, threadId)} execution(s)`;
}

export async function hydrate(target: CheckTarget, threadId: string): Promise<RunReply> {
  return post(target, { threadId, runId: randomUUID() });
}

export const showsToolResult = (reply: RunReply) =>
  reply.frames.some((frame) => {
    if (frame.event.type === "TOOL_CALL_RESULT") return true;
    const messages = frame.event.type === "MESSAGES_SNAPSHOT" ? (frame.event.messages as unknown[]) : [];
    return messages.some((message) => (message as { role?: string }).role === "tool");
  });

/** Approves once, with a fault armed for this thread; returns what a retry needs. */
export async function approveWith(target: CheckTarget, label: string, fault?: Record<string, unknown>) {
  const asked = await askToDeploy(target, label);
  if (fault) await armFaults(target, [{ ...fault, threadId: asked.threadId }]);
  const key = randomUUID();
  const input = resume(asked, approval(asked, true), key);
  const first = await post(target, input, key);
  return { asked, key, input, first };
}
