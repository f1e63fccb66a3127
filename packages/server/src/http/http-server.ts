import { createServer, type RequestListener, type Server } from "node:http";

export interface HttpServerTimeouts {
  /** A request's headers must all arrive within this (a slowloris is cut). @default 10000 */
  readonly headersTimeoutMs?: number;
  /** The whole request, headers and body, must arrive within this; a streamed answer is not bound by it. @default 30000 */
  readonly requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this. @default 5000 */
  readonly keepAliveTimeoutMs?: number;
}

/**
 * `http.createServer` with the bounds Node leaves loose (its defaults hold a
 * stalled request 60 s for headers and 300 s in all, checked every 30 s). The
 * handler bounds body and idle time itself (`NodeHandlerOptions`); only the
 * server can bound the time before the handler runs.
 */
export function createHttpServer(listener: RequestListener, timeouts: HttpServerTimeouts = {}): Server {
  const headersTimeout = timeouts.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(timeouts.requestTimeoutMs ?? 30_000, headersTimeout);
  return createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs ?? 5_000,
      // Node checks both timeouts on this interval: a quarter of the shorter keeps the cut close to it.
      connectionsCheckingInterval: Math.max(10, Math.floor(headersTimeout / 4)),
    },
    listener,
  );
}
