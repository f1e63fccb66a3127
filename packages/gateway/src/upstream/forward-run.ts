import { type AgUiEvent, EVENT_STREAM_CONTENT_TYPE, JSON_CONTENT_TYPE } from "@agui-outbox/core/protocol";
import { GatewayError, GatewayErrorKind } from "../gateway-error";
import { readEvents } from "./read-events";
import type { UpstreamAnswer, UpstreamPost } from "./upstream-post";

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
export async function* forwardRun(post: UpstreamPost, request: UpstreamRequest): AsyncGenerator<AgUiEvent> {
  let answer: UpstreamAnswer;
  try {
    answer = await post(request.url, {
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
  request.onStatus?.(answer.status);
  if (answer.status < 200 || answer.status > 299) {
    // The text is not shown to the caller (it may hold anything).
    await answer.discard();
    throw new GatewayError(
      GatewayErrorKind.upstreamStatus,
      `the upstream agent answered HTTP ${answer.status}`,
      { status: answer.status },
    );
  }
  if (!answer.contentType.includes(EVENT_STREAM_CONTENT_TYPE)) {
    await answer.discard();
    throw new GatewayError(
      GatewayErrorKind.upstreamProtocol,
      "the upstream agent did not answer with an event stream",
    );
  }
  yield* readEvents(answer.body);
}
