import { randomUUID } from "node:crypto";
import { SseReader } from "../../../mock-server/test/support/sse-reader";

/** A thin client of the contract's routes for tests: real HTTP, real SSE. */
export class ContractClient {
  readonly url: string;
  /** Sent with every request, e.g. the header an app's `identify` reads. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(url: string, headers: Readonly<Record<string, string>> = {}) {
    this.url = url.replace(/\/$/, "");
    this.headers = headers;
  }

  async post(body: unknown, key?: string): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, "content-type": "application/json" };
    if (key !== undefined) headers["idempotency-key"] = key;
    return fetch(`${this.url}/agent`, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  /** Posts and reads the whole stream. */
  async run(body: unknown, key?: string): Promise<SseReader> {
    const response = await this.post(body, key);
    if (response.status !== 200)
      throw new Error(`POST /agent answered ${response.status}: ${await response.text()}`);
    const reader = new SseReader(response);
    await reader.done;
    return reader;
  }

  /** Posts and returns the reader at once, while the run goes on. */
  async open(body: unknown, key?: string): Promise<SseReader> {
    const response = await this.post(body, key);
    if (response.status !== 200)
      throw new Error(`POST /agent answered ${response.status}: ${await response.text()}`);
    return new SseReader(response);
  }

  async attach(runId: string, lastEventId?: string): Promise<Response> {
    return fetch(`${this.url}/agent/runs/${encodeURIComponent(runId)}/events`, {
      headers: lastEventId === undefined ? this.headers : { ...this.headers, "last-event-id": lastEventId },
    });
  }

  async status(runId: string): Promise<Response> {
    return fetch(`${this.url}/agent/runs/${encodeURIComponent(runId)}`, { headers: this.headers });
  }

  /** A user turn asking to deploy; returns what a resume needs. */
  async askToDeploy(threadId: string, words: string) {
    const runId = `turn-${randomUUID()}`;
    const reader = await this.run(userTurn(threadId, runId, words));
    const finished = reader.events.at(-1) as {
      type: string;
      outcome?: { type: string; interrupts?: { id: string; toolCallId?: string }[] };
    };
    const interrupt = finished.outcome?.interrupts?.[0];
    if (finished.type !== "RUN_FINISHED" || interrupt === undefined) {
      throw new Error(`expected an interrupt, got ${reader.types.join(", ")}`);
    }
    return { runId, interruptId: interrupt.id, toolCallId: interrupt.toolCallId, reader };
  }
}

export function userTurn(threadId: string, runId: string, words: string) {
  return {
    threadId,
    runId,
    messages: [{ id: `m-${runId}`, role: "user", content: words }],
    tools: [],
    context: [],
  };
}

export function resumeBody(
  threadId: string,
  runId: string,
  interruptId: string,
  key: string,
  payload: unknown = { approved: true },
  status: "resolved" | "cancelled" = "resolved",
) {
  return {
    threadId,
    runId,
    messages: [],
    tools: [],
    context: [],
    resume: [{ interruptId, status, payload, metadata: { "x-idempotency-key": key } }],
  };
}

/** The status and JSON body of a background start or poll. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** A `BackgroundResponse`, or an error body (only `error` set). */
  readonly body: {
    readonly runId?: string;
    readonly status?: string;
    readonly continuationToken?: string | null;
    readonly events?: readonly { readonly type: string; readonly [field: string]: unknown }[];
    readonly lastSeq?: number;
    readonly error?: { readonly code: string; readonly message: string } | null;
  };
}

export async function readJson(response: Response): Promise<JsonAnswer> {
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** `POST {url}/agent/background/poll` with a continuation token. */
export async function pollBackground(url: string, token: string): Promise<JsonAnswer> {
  const response = await fetch(`${url.replace(/\/$/, "")}/agent/background/poll`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ continuationToken: token }),
  });
  return readJson(response);
}
