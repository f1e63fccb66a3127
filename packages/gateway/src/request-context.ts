import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingHttpHeaders } from "node:http";

/**
 * The headers of the request being served, for the proxy agent that forwards
 * it. The server library hands its agent the parsed input and the identity,
 * not the request; the run it starts inherits this context from the request
 * that started it, so the upstream sees that request's own credentials.
 */
const current = new AsyncLocalStorage<Readonly<Record<string, string>>>();

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

export function withForwardedHeaders<T>(headers: Readonly<Record<string, string>>, run: () => T): T {
  return current.run(headers, run);
}

/** The forwarded headers of the request this code runs for; none outside a request. */
export function forwardedHeaders(): Readonly<Record<string, string>> {
  return current.getStore() ?? {};
}
