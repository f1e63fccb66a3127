import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { ResponseHold } from "./response-hold";

/**
 * The headers of the request being served, for the proxy agent that forwards
 * it, found by the request the server library hands the agent's turn: the
 * upstream sees that request's own credentials. (Not an AsyncLocalStorage:
 * its promise hooks cost every promise in the process, a fifth of a stream's CPU.)
 */
interface RequestContext {
  readonly headers: Readonly<Record<string, string>>;
  /** The response of a `POST /agent`, held until the upstream answers. */
  readonly hold: ResponseHold | undefined;
}
const contexts = new WeakMap<IncomingMessage, RequestContext>();

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

export function setRequestContext(request: IncomingMessage, context: RequestContext): void {
  contexts.set(request, context);
}

/** The forwarded headers of the request a turn runs for; none outside a request. */
export function forwardedHeaders(request: IncomingMessage | undefined): Readonly<Record<string, string>> {
  return (request && contexts.get(request)?.headers) ?? {};
}

/** The held response of the request a turn runs for, if it is one. */
export function responseHold(request: IncomingMessage | undefined): ResponseHold | undefined {
  return request && contexts.get(request)?.hold;
}
