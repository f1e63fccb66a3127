import type { IncomingMessage } from "node:http";

export class BodyTooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.limit = limit;
    this.name = "BodyTooLargeError";
  }
}

/** The body did not arrive within its time (a client stalled mid-body). */
export class BodyTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`request body did not arrive within ${timeoutMs} ms`);
    this.name = "BodyTimeoutError";
  }
}

/**
 * Reads the whole body, within `timeoutMs` when given. Past the limit the bytes are drained and dropped (not
 * buffered) so the client can still read the 413; far past it the socket is cut.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs?: number): Promise<Buffer> {
  const reading = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        if (size > limit * 16) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) reject(new BodyTooLargeError(limit));
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", (error) => reject(tooLarge ? new BodyTooLargeError(limit) : error));
    req.on("close", () => {
      if (!req.complete) reject(tooLarge ? new BodyTooLargeError(limit) : new Error("request aborted"));
    });
  });
  if (timeoutMs === undefined) return reading;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([reading, late]).finally(() => clearTimeout(timer));
}
