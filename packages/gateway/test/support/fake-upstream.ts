import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake upstream received. */
export interface UpstreamRequest {
  readonly headers: IncomingMessage["headers"];
  readonly body: {
    readonly threadId: string;
    readonly runId: string;
    readonly messages: readonly unknown[];
    readonly resume?: readonly { readonly interruptId: string; readonly payload?: unknown }[];
  };
}

/** What the fake answers one request with: events to send, then how the stream ends. */
export interface Script {
  readonly status?: number;
  readonly events?: readonly Record<string, unknown>[];
  /** "end" closes normally after the events; "cut" destroys the connection after them. */
  readonly ending?: "end" | "cut";
  /** Resolves when the fake may send its events (a tool that takes as long as a test says). */
  readonly hold?: Promise<void>;
}

export interface FakeUpstream {
  /** The run endpoint. */
  readonly url: string;
  readonly requests: UpstreamRequest[];
  /** Runs being answered now, and the most ever answered at once. */
  readonly concurrency: { now: number; max: number };
  close(): Promise<void>;
}

/**
 * A scripted AG-UI server without the recovery contract, for the gateway's
 * failure paths: `answer` decides each request's stream from what it received.
 */
export async function startFakeUpstream(answer: (request: UpstreamRequest) => Script): Promise<FakeUpstream> {
  const requests: UpstreamRequest[] = [];
  const concurrency = { now: 0, max: 0 };
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: UpstreamRequest = {
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
    };
    requests.push(request);
    const script = answer(request);
    if (script.status !== undefined && script.status !== 200) {
      res.writeHead(script.status, { "content-type": "application/json" }).end('{"detail":"no"}');
      return;
    }
    concurrency.now += 1;
    concurrency.max = Math.max(concurrency.max, concurrency.now);
    res.writeHead(200, { "content-type": "text/event-stream" });
    // As SSE servers do: the client knows it was taken before the first event.
    res.flushHeaders();
    try {
      await script.hold;
      for (const event of script.events ?? []) {
        // Flushed before the next step: a cut must come after what was sent, not swallow it.
        await new Promise<void>((resolve) =>
          res.write(`data: ${JSON.stringify(event)}\n\n`, () => resolve()),
        );
      }
    } finally {
      concurrency.now -= 1;
    }
    if (script.ending === "cut") res.destroy();
    else res.end();
  };
  const http: Server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/agent`,
    requests,
    concurrency,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A turn that proposes `deploy` as call `call-<threadId>` and asks for approval. */
export function asks(request: UpstreamRequest): Record<string, unknown>[] {
  const { threadId, runId } = request.body;
  const toolCallId = `call-${threadId}`;
  return [
    { type: "RUN_STARTED", threadId, runId },
    { type: "TOOL_CALL_START", toolCallId, toolCallName: "deploy" },
    { type: "TOOL_CALL_ARGS", toolCallId, delta: '{"target":"prod"}' },
    { type: "TOOL_CALL_END", toolCallId },
    {
      type: "RUN_FINISHED",
      threadId,
      runId,
      outcome: {
        type: "interrupt",
        interrupts: [{ id: `ask-${threadId}`, reason: "tool_approval", toolCallId }],
      },
    },
  ];
}

/** The approved call's result, as an upstream that ran it streams it. */
export function result(request: UpstreamRequest): Record<string, unknown> {
  return {
    type: "TOOL_CALL_RESULT",
    messageId: `result-${request.body.threadId}`,
    toolCallId: `call-${request.body.threadId}`,
    content: "Deployed to prod.",
    role: "tool",
  };
}

export function started(request: UpstreamRequest): Record<string, unknown> {
  return { type: "RUN_STARTED", threadId: request.body.threadId, runId: request.body.runId };
}

export function finished(request: UpstreamRequest): Record<string, unknown> {
  const { threadId, runId } = request.body;
  return { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } };
}
