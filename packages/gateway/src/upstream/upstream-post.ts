import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

/** The part of `fetch` the gateway uses; tests and hosts inject their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface UpstreamAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: AsyncIterable<Uint8Array>;
  /** Lets the answer go unread, freeing its connection. */
  discard(): Promise<void>;
}

export interface UpstreamPostInit {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
}

/** One POST to the upstream; rejects when it cannot be reached. */
export type UpstreamPost = (url: string, init: UpstreamPostInit) => Promise<UpstreamAnswer>;

/** The POST through an injected `fetch`. */
export function postWithFetch(fetch: FetchLike): UpstreamPost {
  return async (url, init) => {
    const response = await fetch(url, { method: "POST", ...init });
    const body = response.body;
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      body: body ?? (async function* () {})(),
      // Only frees the connection: what the caller does next is what it records.
      // A body refused mid-cancel has nothing left to read: the failure is already the caller's.
      discard: async () => void (await body?.cancel().catch(() => {})),
    };
  };
}

/**
 * The POST through node:http(s), the default: a long stream read as Node's
 * own chunks costs less CPU per event than `fetch`'s web streams.
 */
export const postWithNodeHttp: UpstreamPost = (url, init) =>
  new Promise((resolve, reject) => {
    const request = (url.startsWith("https:") ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: { ...init.headers, "content-length": Buffer.byteLength(init.body) },
    });
    // Not node's `signal` option: its AbortError lands on the socket even after the answer was read.
    const abort = () => request.destroy();
    if (init.signal.aborted) abort();
    init.signal.addEventListener("abort", abort, { once: true });
    request.once("close", () => init.signal.removeEventListener("abort", abort));
    request.once("error", reject);
    request.once("response", (response: IncomingMessage) => {
      // Once answered, a failure (a cut, an abort) is the body's to throw, to whoever reads it.
      request.off("error", reject);
      request.on("error", () => {});
      resolve({
        status: response.statusCode ?? 0,
        contentType: response.headers["content-type"] ?? "",
        body: response,
        discard: async () => {
          response.destroy();
        },
      });
    });
    request.end(init.body);
  });
