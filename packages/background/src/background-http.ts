import type { FetchLike } from "@agui-outbox/core";
import { type DeliverySignal, ErrorKind, isOutboxError } from "@agui-outbox/core";
import type { AgentHttp } from "@agui-outbox/core/internal";
import { InvalidStreamKind } from "@agui-outbox/core/internal";
import {
  AgentRoute,
  type BackgroundPollRequest,
  type BackgroundResponse,
  BackgroundResponseSchema,
  Header,
  JSON_CONTENT_TYPE,
} from "@agui-outbox/core/protocol";
import { type BackgroundEvent, decodeBackgroundEvents } from "./decode-background-events";

/** A background start or poll, reduced to data: the caller never sees a `Response`. */
export type BackgroundAnswer =
  | {
      readonly kind: "ok";
      readonly response: BackgroundResponse;
      readonly events: readonly BackgroundEvent[];
    }
  | { readonly kind: "failed"; readonly signal: DeliverySignal };

export interface BackgroundHttpOptions {
  /** The agent endpoint, e.g. `https://host/agent`. */
  readonly url: string;
  readonly fetch: FetchLike;
  /** Reads error bodies and `Retry-After` the same way as every other request. */
  readonly http: AgentHttp;
  /** Extra headers per request (auth), read per request. */
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
}

/**
 * The two background routes: `POST {agent}` with `forwardedProps.background`
 * (answers 202 with a `BackgroundResponse`) and `POST {agent}/background/poll`
 * with the held continuation token. The body is parsed once, here.
 */
export class BackgroundHttp {
  readonly #options: BackgroundHttpOptions;

  constructor(options: BackgroundHttpOptions) {
    this.#options = options;
  }

  /**
   * Starts a background run with the exact `RunAgentInput` bytes. A retry
   * sends the same bytes with the same key: the server answers with the run
   * the first start began rather than starting another.
   */
  start(body: string, idempotencyKey: string, signal?: AbortSignal): Promise<BackgroundAnswer> {
    return this.#post(AgentRoute.run, body, signal, idempotencyKey);
  }

  /** Polls with the held token. A failure leaves that token current on the server. */
  poll(continuationToken: string, signal?: AbortSignal): Promise<BackgroundAnswer> {
    const request: BackgroundPollRequest = { continuationToken };
    return this.#post(AgentRoute.backgroundPoll, JSON.stringify(request), signal);
  }

  async #post(
    path: string,
    body: string,
    signal: AbortSignal | undefined,
    idempotencyKey?: string,
  ): Promise<BackgroundAnswer> {
    const headers = {
      ...(await this.#options.headers?.()),
      [Header.contentType]: JSON_CONTENT_TYPE,
      accept: JSON_CONTENT_TYPE,
      ...(idempotencyKey === undefined ? {} : { [Header.idempotencyKey]: idempotencyKey }),
    };
    let response: Response;
    try {
      response = await this.#options.fetch(`${this.#options.url}${path}`, {
        method: "POST",
        headers,
        body,
        cache: "no-store",
        ...(signal ? { signal } : {}),
      });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      return {
        kind: "failed",
        signal: { type: "network-error", message: `The request to ${path || "/"} failed.` },
      };
    }
    if (!response.ok) {
      const failure = await this.#options.http.failure(response);
      return {
        kind: "failed",
        signal: {
          type: "http-status",
          status: failure.status,
          message: failure.message,
          ...(failure.code === undefined ? {} : { code: failure.code }),
          ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
        },
      };
    }
    return parseAnswer(response, signal);
  }
}

async function parseAnswer(response: Response, signal: AbortSignal | undefined): Promise<BackgroundAnswer> {
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch (cause) {
    if (signal?.aborted) throw cause;
    return unreadable(InvalidStreamKind.invalidJson, "The background response is not JSON.");
  }
  const parsed = BackgroundResponseSchema.safeParse(json);
  if (!parsed.success) {
    return unreadable(InvalidStreamKind.invalidEvent, "The background response does not match its schema.");
  }
  try {
    return { kind: "ok", response: parsed.data, events: decodeBackgroundEvents(parsed.data.events) };
  } catch (error) {
    if (isOutboxError(error) && error.kind === ErrorKind.malformedStream) {
      return unreadable(InvalidStreamKind.malformedStream, error.message);
    }
    return unreadable(
      InvalidStreamKind.invalidEvent,
      isOutboxError(error) ? error.message : "A background event is invalid.",
    );
  }
}

function unreadable(kind: InvalidStreamKind, message: string): BackgroundAnswer {
  return { kind: "failed", signal: { type: "invalid-stream", kind, message } };
}
