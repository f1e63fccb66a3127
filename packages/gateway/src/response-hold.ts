import type { ServerResponse } from "node:http";
import { JSON_CONTENT_TYPE } from "@agui-outbox/core/protocol";

/** The codes of a run the upstream refused the caller's credentials for. */
export const UpstreamAuthCode = {
  401: "UPSTREAM_UNAUTHORIZED",
  403: "UPSTREAM_FORBIDDEN",
} as const;

const KEEPALIVE = ": keepalive";

/**
 * A `POST /agent` response whose status waits for the upstream. The server
 * library opens its event stream (HTTP 200) before the run reaches the
 * upstream; a 401 or 403 there must reach the client as that status (it then
 * pauses for a new sign-in), so the response's writes are held:
 *
 *   holding ──upstream answered 2xx, the response ends, or a keepalive is due──▶ open (writes replayed)
 *      └────upstream answered 401/403──▶ refused (that status; the stream's writes dropped)
 *
 * A keepalive opens it so a long wait (the thread lock, a replay's tail) never
 * looks like a dead connection to the client.
 */
export class ResponseHold {
  readonly #res: ServerResponse;
  #queue: Array<() => void> = [];
  #state: "holding" | "open" | "refused" = "holding";
  /** What the server library writes to: the response, held. */
  readonly response: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
    const overrides: Record<string | symbol, unknown> = {
      writeHead: (...args: unknown[]) => this.#later(() => res.writeHead(...(args as [number]))),
      flushHeaders: () => this.#later(() => res.flushHeaders()),
      write: (chunk: string, callback?: () => void) => {
        if (this.#state === "holding" && chunk.startsWith(KEEPALIVE)) this.open();
        this.#later(() => res.write(chunk, callback));
        return true;
      },
      end: (...args: unknown[]) => {
        this.open();
        if (this.#state === "open") res.end(...(args as []));
        return this.response;
      },
    };
    this.response = new Proxy(res, {
      get(target, property) {
        if (Object.hasOwn(overrides, property)) return overrides[property];
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** The upstream took the request (or none will be asked): the held writes go out. */
  open(): void {
    if (this.#state !== "holding") return;
    this.#state = "open";
    for (const write of this.#queue) write();
    this.#queue = [];
  }

  /** Answers with the upstream's refusal if nothing was sent yet; false when too late. */
  refuse(status: 401 | 403, message: string): boolean {
    if (this.#state !== "holding") return false;
    this.#state = "refused";
    this.#queue = [];
    const text = JSON.stringify({ code: UpstreamAuthCode[status], message });
    this.#res.writeHead(status, {
      "content-type": `${JSON_CONTENT_TYPE}; charset=utf-8`,
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
    });
    this.#res.end(text);
    return true;
  }

  #later(write: () => void): ServerResponse {
    if (this.#state === "open") write();
    else if (this.#state === "holding") this.#queue.push(write);
    return this.response;
  }
}

/** Settles a held response by the upstream's HTTP status: 401/403 as they are, anything else opens it. */
export function settleHold(hold: ResponseHold | undefined, status: number): void {
  if (status === 401 || status === 403) hold?.refuse(status, `the upstream agent answered HTTP ${status}`);
  else hold?.open();
}
