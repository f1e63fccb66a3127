import { ErrorKind, OutboxError } from "../errors/outbox-error";
import {
  type AgentCapabilities,
  AgentRoute,
  EVENT_STREAM_CONTENT_TYPE,
  Header,
  JSON_CONTENT_TYPE,
  type RunStatus,
} from "../protocol";
import { parseHttpErrorBody, parseRunStatus } from "../protocol/extension-checks";
import type { FetchLike } from "./fetch-like";
import { readCapabilities } from "./read-capabilities";

/** An HTTP answer that is not a success, reduced to data: the classifier never sees a Response. */
export interface HttpFailure {
  readonly status: number;
  readonly code: string | undefined;
  readonly message: string;
  /** From `Retry-After`, in ms, when the server sent one. */
  readonly retryAfterMs: number | undefined;
}

export type RetryAfterParser = (value: string | null, now: number) => number | undefined;

export interface AgentHttpOptions {
  /** The agent endpoint, e.g. `https://host/agent`. */
  readonly url: string;
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly parseRetryAfter: RetryAfterParser;
  /** Extra headers for every request (auth, tenant). Read per request so a refreshed token is used. */
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
}

/** The agent's HTTP surface, as the recovery contract defines it. One instance per client. */
export class AgentHttp {
  readonly #options: AgentHttpOptions;

  constructor(options: AgentHttpOptions) {
    this.#options = options;
  }

  get url(): string {
    return this.#options.url;
  }

  async #headers(extra: Record<string, string>): Promise<Record<string, string>> {
    return { ...(await this.#options.headers?.()), ...extra };
  }

  async #fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.#options.fetch(`${this.#options.url}${path}`, init);
    } catch (cause) {
      if (init.signal?.aborted) throw cause;
      throw new OutboxError(
        ErrorKind.network,
        // The whole address: the run route's own path is empty.
        `The request to ${this.#options.url}${path} failed before a response arrived.`,
        {
          cause,
        },
      );
    }
  }

  /** `POST /agent` with an exact body. A resume carries its idempotency key. */
  async postRun(
    body: string,
    options: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const headers = await this.#headers({
      [Header.contentType]: JSON_CONTENT_TYPE,
      accept: EVENT_STREAM_CONTENT_TYPE,
      ...(options.idempotencyKey ? { [Header.idempotencyKey]: options.idempotencyKey } : {}),
    });
    return this.#fetch(AgentRoute.run, {
      method: "POST",
      headers,
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** `GET /agent/runs/{runId}/events` with `Last-Event-ID`: the events after the cursor, then live. */
  async reattach(runId: string, lastSeq: number, signal?: AbortSignal): Promise<Response> {
    const headers = await this.#headers({
      accept: EVENT_STREAM_CONTENT_TYPE,
      ...(lastSeq > 0 ? { [Header.lastEventId]: `${runId}:${lastSeq}` } : {}),
    });
    return this.#fetch(AgentRoute.runEvents(runId), {
      method: "GET",
      headers,
      cache: "no-store",
      ...(signal ? { signal } : {}),
    });
  }

  /** `GET /agent/runs/{runId}`: the run's status, or the HTTP failure (404 unknown, 410 expired). */
  async runStatus(runId: string): Promise<RunStatus | HttpFailure> {
    const response = await this.#fetch(AgentRoute.runStatus(runId), {
      method: "GET",
      headers: await this.#headers({ accept: JSON_CONTENT_TYPE }),
      cache: "no-store",
    });
    if (!response.ok) return this.failure(response);
    const status = parseRunStatus(await readJson(response, "run status"));
    if (status === undefined) {
      throw new OutboxError(
        ErrorKind.invalidEvent,
        "The run status document is not the contract's run status.",
      );
    }
    return status;
  }

  /** `GET /agent/capabilities`, parsed by `readCapabilities`. */
  async capabilities(signal?: AbortSignal): Promise<AgentCapabilities> {
    const response = await this.#fetch(AgentRoute.capabilities, {
      method: "GET",
      headers: await this.#headers({ accept: JSON_CONTENT_TYPE }),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) {
      const failure = await this.failure(response);
      throw new OutboxError(ErrorKind.http, `Capabilities answered HTTP ${failure.status}.`, {
        status: failure.status,
        ...(failure.code ? { code: failure.code } : {}),
      });
    }
    return readCapabilities(await readJson(response, "capabilities"));
  }

  /** Reads a non-2xx answer into data. Tolerates bodies that are not JSON (proxies, HTML pages). */
  async failure(response: Response): Promise<HttpFailure> {
    const retryAfterMs = this.#options.parseRetryAfter(
      response.headers.get(Header.retryAfter),
      this.#options.now(),
    );
    let code: string | undefined;
    let message = `HTTP ${response.status}`;
    try {
      const body = parseHttpErrorBody(JSON.parse(await response.text()));
      if (body) {
        code = body.error.code;
        message = body.error.message;
      }
    } catch {
      // Not JSON: the status alone decides.
    }
    return { status: response.status, code, message, retryAfterMs };
  }
}

async function readJson(response: Response, what: string): Promise<unknown> {
  try {
    return await response.json();
  } catch (cause) {
    throw new OutboxError(ErrorKind.invalidJson, `The ${what} response is not JSON.`, { cause });
  }
}

export function isHttpFailure(value: RunStatus | HttpFailure): value is HttpFailure {
  return "status" in value && typeof value.status === "number";
}
