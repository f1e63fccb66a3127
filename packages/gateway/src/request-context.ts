import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingHttpHeaders } from "node:http";
import type { ResponseHold } from "./response-hold";

/**
 * The headers of the request being served, for the proxy agent that forwards
 * it. The server library hands its agent the parsed input and the identity,
 * not the request; the run it starts inherits this context from the request
 * that started it, so the upstream sees that request's own credentials.
 */
interface RequestContext {
  readonly headers: Readonly<Record<string, string>>;
  /** The response of a `POST /agent`, held until the upstream answers. */
  readonly hold: ResponseHold | undefined;
}
const current = new AsyncLocalStorage<RequestContext>();

/** The named headers of `headers`, lower-cased, single-valued. */
export function pickHeaders(headers: IncomingHttpHeaders, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    const text = Array.isArray(value) ? value.join(", ") : value;
    if (text !== undefined) picked[name.toLowerCase()] = text;
  }
  return picked;
}

export function withRequestContext<T>(context: RequestContext, run: () => T): T {
  return current.run(context, run);
}

/** The forwarded headers of the request this code runs for; none outside a request. */
export function forwardedHeaders(): Readonly<Record<string, string>> {
  return current.getStore()?.headers ?? {};
}

/** The held response of the request this code runs for, if it is one. */
export function responseHold(): ResponseHold | undefined {
  return current.getStore()?.hold;
}
