import type { IncomingMessage } from "node:http";

export class BodyTooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.limit = limit;
    this.name = "BodyTooLargeError";
  }
}

/**
 * Reads the whole body. Past the limit the bytes are drained and dropped (not
 * buffered) so the client can still read the 413; far past it the socket is cut.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
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
}
