/**
 * A scripted in-memory AG-UI agent behind a `fetch` stub, for the hook tests.
 * It speaks the recovery contract's framing (`id: <runId>:<seq>`, `x-stream`,
 * claim acks) with canned events. Test-only: nothing in the package imports it.
 */
import type { FetchLike } from "@agui-outbox/core";
import type { Message } from "@agui-outbox/core/protocol";

export const DEPLOY_SCHEMA = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    editedArgs: {
      type: "object",
      properties: { target: { type: "string", minLength: 1 } },
      required: ["target"],
      additionalProperties: false,
    },
  },
  required: ["approved"],
  additionalProperties: false,
} as const;

/** What a resume request is answered with. */
export type ResumeScript =
  | { readonly kind: "success" }
  | { readonly kind: "replayed" }
  | { readonly kind: "status"; readonly status: number; readonly retryAfterSeconds?: number }
  | { readonly kind: "run_error"; readonly code: string; readonly afterAck: boolean }
  /** Holds the response until `release()` is called, then answers success. */
  | { readonly kind: "hold"; readonly released: Promise<void> };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly kind: "capabilities" | "message" | "hydrate" | "resume" | "other";
  readonly idempotencyKey: string | null;
}

interface ThreadRecord {
  messages: Message[];
  open: Record<string, unknown>[];
}

const encoder = new TextEncoder();

function sse(runId: string, events: readonly Record<string, unknown>[]): Response {
  const text = events
    .map((event, index) => {
      const cursor = { runId, seq: index + 1 };
      const withCursor = {
        ...event,
        metadata: { ...(event.metadata as object | undefined), "x-stream": cursor },
      };
      return `id: ${runId}:${index + 1}\ndata: ${JSON.stringify(withCursor)}\n\n`;
    })
    .join("");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export class FakeAgent {
  readonly requests: RecordedRequest[] = [];
  /** Consumed one per resume request; when empty, resumes succeed. */
  readonly resumeScripts: ResumeScript[] = [];
  readonly #threads = new Map<string, ThreadRecord>();
  #ids = 0;

  readonly fetch: FetchLike = async (input, init) => {
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const idempotencyKey = headers.get("idempotency-key");
    if (method === "GET" && input.endsWith("/capabilities")) {
      this.requests.push({ method, url: input, kind: "capabilities", idempotencyKey });
      return json(200, {
        custom: {
          "x-recovery": {
            version: 1,
            idempotencyWindowMs: 86_400_000,
            eventLogRetentionMs: 3_600_000,
            claimLeaseMs: 30_000,
            keepaliveMs: 15_000,
          },
        },
      });
    }
    if (method !== "POST") {
      this.requests.push({ method, url: input, kind: "other", idempotencyKey });
      return json(404, { error: { code: "ROUTE_NOT_FOUND", message: "No such route." } });
    }
    const body = JSON.parse(String(init?.body)) as {
      threadId: string;
      runId: string;
      messages: Message[];
      resume?: { interruptId: string; status: string }[];
    };
    if (body.resume) {
      this.requests.push({ method, url: input, kind: "resume", idempotencyKey });
      return this.#resume(body.threadId, body.runId, body.resume[0]?.interruptId ?? "", idempotencyKey ?? "");
    }
    if (body.messages.length === 0) {
      this.requests.push({ method, url: input, kind: "hydrate", idempotencyKey });
      return this.#hydrate(body.threadId, body.runId);
    }
    this.requests.push({ method, url: input, kind: "message", idempotencyKey });
    return this.#message(body.threadId, body.runId, body.messages);
  };

  count(kind: RecordedRequest["kind"]): number {
    return this.requests.filter((request) => request.kind === kind).length;
  }

  #thread(threadId: string): ThreadRecord {
    let thread = this.#threads.get(threadId);
    if (!thread) {
      thread = { messages: [], open: [] };
      this.#threads.set(threadId, thread);
    }
    return thread;
  }

  #id(prefix: string): string {
    this.#ids += 1;
    return `${prefix}_${this.#ids}`;
  }

  /** Puts a thread in the state "the agent asked to deploy to `target`", without a request. */
  seedDeployQuestion(threadId: string, target = "prod"): string {
    const thread = this.#thread(threadId);
    const toolCallId = this.#id("call");
    thread.messages.push(
      { id: this.#id("user"), role: "user", content: `please deploy to ${target}` },
      {
        id: this.#id("msg"),
        role: "assistant",
        content: "I can do that.",
        toolCalls: [
          {
            id: toolCallId,
            type: "function",
            function: { name: "deploy_change", arguments: JSON.stringify({ target }) },
          },
        ],
      },
    );
    thread.open.push(this.#interrupt(toolCallId, target));
    return toolCallId;
  }

  #interrupt(toolCallId: string, target: string): Record<string, unknown> {
    return {
      id: toolCallId,
      reason: "tool_call",
      toolCallId,
      message: `Deploy to ${target}?`,
      responseSchema: DEPLOY_SCHEMA,
    };
  }

  #finished(
    threadId: string,
    runId: string,
    open: readonly Record<string, unknown>[],
  ): Record<string, unknown> {
    return {
      type: "RUN_FINISHED",
      threadId,
      runId,
      outcome: open.length > 0 ? { type: "interrupt", interrupts: open } : { type: "success" },
    };
  }

  #hydrate(threadId: string, runId: string): Response {
    const thread = this.#thread(threadId);
    return sse(runId, [
      { type: "RUN_STARTED", threadId, runId },
      { type: "MESSAGES_SNAPSHOT", messages: thread.messages },
      this.#finished(threadId, runId, thread.open),
    ]);
  }

  #message(threadId: string, runId: string, messages: readonly Message[]): Response {
    const thread = this.#thread(threadId);
    const last = messages.at(-1);
    if (last) thread.messages.push(last);
    const text = last && typeof last.content === "string" ? last.content : "";
    const messageId = this.#id("msg");
    if (!text.includes("deploy")) {
      const reply = "Noted.";
      thread.messages.push({ id: messageId, role: "assistant", content: reply });
      return sse(runId, [
        { type: "RUN_STARTED", threadId, runId },
        { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
        { type: "TEXT_MESSAGE_CONTENT", messageId, delta: reply },
        { type: "TEXT_MESSAGE_END", messageId },
        this.#finished(threadId, runId, []),
      ]);
    }
    const target = text.includes("staging") ? "staging" : "prod";
    const toolCallId = this.#id("call");
    const args = JSON.stringify({ target });
    thread.messages.push({
      id: messageId,
      role: "assistant",
      content: "I can do that.",
      toolCalls: [{ id: toolCallId, type: "function", function: { name: "deploy_change", arguments: args } }],
    });
    thread.open.push(this.#interrupt(toolCallId, target));
    return sse(runId, [
      { type: "RUN_STARTED", threadId, runId },
      { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId, delta: "I can do that." },
      { type: "TEXT_MESSAGE_END", messageId },
      { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy_change", parentMessageId: messageId },
      { type: "TOOL_CALL_ARGS", toolCallId, delta: args },
      { type: "TOOL_CALL_END", toolCallId },
      this.#finished(threadId, runId, thread.open),
    ]);
  }

  async #resume(threadId: string, runId: string, interruptId: string, key: string): Promise<Response> {
    const script = this.resumeScripts.shift() ?? { kind: "success" };
    const thread = this.#thread(threadId);
    const ack = {
      type: "RUN_STARTED",
      threadId,
      runId,
      metadata: { "x-resume": { ack: "claimed", interruptIds: [interruptId], idempotencyKey: key, runId } },
    };
    switch (script.kind) {
      case "status":
        return json(
          script.status,
          {
            error: {
              code: script.status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE",
              message: "Try later.",
            },
          },
          script.retryAfterSeconds === undefined ? {} : { "retry-after": String(script.retryAfterSeconds) },
        );
      case "run_error":
        return sse(runId, [
          ...(script.afterAck ? [ack] : [{ type: "RUN_STARTED", threadId, runId }]),
          { type: "RUN_ERROR", code: script.code, message: "Scripted failure." },
        ]);
      case "hold":
        await script.released;
        break;
      case "success":
      case "replayed":
        break;
    }
    thread.open = thread.open.filter((interrupt) => interrupt.id !== interruptId);
    const resultId = this.#id("result");
    thread.messages.push({ id: resultId, role: "tool", toolCallId: interruptId, content: "deployed" });
    const finished = this.#finished(threadId, runId, thread.open);
    return sse(runId, [
      ack,
      {
        type: "TOOL_CALL_RESULT",
        messageId: resultId,
        toolCallId: interruptId,
        content: "deployed",
        role: "tool",
      },
      script.kind === "replayed"
        ? { ...finished, metadata: { "x-resume": { replayed: true, originalRunId: "run-original" } } }
        : finished,
    ]);
  }
}
