import { type AgUiEvent, EVENT_STREAM_CONTENT_TYPE, JSON_CONTENT_TYPE } from "@agui-outbox/core/protocol";
import { GatewayError, GatewayErrorKind } from "../gateway-error";
import { readEvents } from "./read-events";

/** The part of `fetch` the gateway uses; tests and hosts inject their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface UpstreamRequest {
  readonly url: string;
  readonly body: unknown;
  /** The caller's headers the gateway passes on (authorization, the idempotency key). */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Told the upstream's HTTP status as soon as it answers. */
  readonly onStatus?: (status: number) => void;
}

/**
 * POSTs one run to the upstream and yields its events. Throws a
 * {@link GatewayError} when nothing usable came back: unreachable, an HTTP
 * error status, or a body that is not an event stream.
 */
export async function* forwardRun(fetch: FetchLike, request: UpstreamRequest): AsyncGenerator<AgUiEvent> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: "POST",
      headers: {
        ...request.headers,
        "content-type": JSON_CONTENT_TYPE,
        accept: EVENT_STREAM_CONTENT_TYPE,
      },
      body: JSON.stringify(request.body),
      signal: request.signal,
    });
  } catch (cause) {
    throw new GatewayError(GatewayErrorKind.upstreamUnreachable, "the upstream agent could not be reached", {
      cause,
    });
  }
  request.onStatus?.(response.status);
  if (!response.ok) {
    // Read so the connection can be reused; the text is not shown to the caller (it may hold anything).
    await response.text().catch(() => "");
    throw new GatewayError(
      GatewayErrorKind.upstreamStatus,
      `the upstream agent answered HTTP ${response.status}`,
      { status: response.status },
    );
  }
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes(EVENT_STREAM_CONTENT_TYPE) || response.body === null) {
    // Only frees the connection: the error thrown next is what the caller records.
    await response.body?.cancel().catch(() => {});
    throw new GatewayError(
      GatewayErrorKind.upstreamProtocol,
      "the upstream agent did not answer with an event stream",
    );
  }
  yield* readEvents(response.body);
}
