/**
 * The one network call the client makes, `fetch` as injected (`OutboxDeps.fetch`).
 * Declared by the transport that uses it, so the transport imports nothing of
 * the client that hands it in.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
