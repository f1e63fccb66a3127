/** `fetch` as injected, declared here so the transport imports nothing of the client. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
