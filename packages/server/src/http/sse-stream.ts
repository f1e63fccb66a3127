import type { ServerResponse } from "node:http";
import { EVENT_STREAM_CONTENT_TYPE } from "@agui-outbox/core/protocol";

export interface SseStreamOptions {
  readonly keepaliveMs: number;
  /** Cut the connection after this many frames (a `mid-stream` drop fault). */
  readonly dropAfterFrames?: number | undefined;
}

/**
 * One SSE response. Frames are `id:` + `data:` with LF endings; a comment every
 * `keepaliveMs` lets the client tell a quiet run from a dead connection.
 * Closing it never touches the run it shows.
 */
export class SseStream {
  readonly #res: ServerResponse;
  readonly #dropAfterFrames: number | undefined;
  readonly #keepalive: ReturnType<typeof setInterval> | undefined;
  readonly #closeListeners = new Set<() => void>();
  #frames = 0;
  #closed = false;

  constructor(res: ServerResponse, options: SseStreamOptions) {
    this.#res = res;
    this.#dropAfterFrames = options.dropAfterFrames;
    res.writeHead(200, {
      "content-type": `${EVENT_STREAM_CONTENT_TYPE}; charset=utf-8`,
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.flushHeaders();
    // 0 = no keepalive comments (servers without the contract send none).
    this.#keepalive =
      options.keepaliveMs > 0
        ? setInterval(() => this.#write(": keepalive\n\n"), options.keepaliveMs)
        : undefined;
    res.on("close", () => this.#markClosed());
    if (this.#dropAfterFrames === 0) this.drop();
  }

  get closed(): boolean {
    return this.#closed;
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.add(listener);
  }

  /** A frame with an `id:` line, or a bare `data:` frame when `id` is undefined. */
  writeFrame(id: string | undefined, data: unknown): void {
    if (this.#closed) return;
    const text = `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
    this.#frames += 1;
    if (this.#dropAfterFrames !== undefined && this.#frames >= this.#dropAfterFrames) {
      // Destroy only once the frame reached the socket, so exactly N frames arrive.
      this.#markClosed();
      if (this.#res.destroyed) return;
      this.#res.write(text, () => this.#res.destroy());
      return;
    }
    this.#write(text);
  }

  /** Ends the response normally (after a terminal event). */
  end(): void {
    if (this.#closed) return;
    this.#res.end();
    this.#markClosed();
  }

  /** Cuts the connection without ending the chunked body: the client sees a lost stream. */
  drop(): void {
    if (this.#closed) return;
    this.#res.destroy();
    this.#markClosed();
  }

  #write(text: string): void {
    if (this.#closed || this.#res.destroyed) return;
    this.#res.write(text);
  }

  #markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepalive);
    for (const listener of this.#closeListeners) listener();
    this.#closeListeners.clear();
  }
}
