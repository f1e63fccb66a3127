import type { ServerResponse } from "node:http";
import { type HttpErrorBody, JSON_CONTENT_TYPE } from "@agui-outbox/core/protocol";

/** Any origin may call (a demo app on another port); the contract's headers pass. */
export function setCorsHeaders(res: ServerResponse): void {
  res.setHeader("access-control-allow-origin", "*");
  res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
  // `authorization`: an app's identify may read a bearer token.
  res.setHeader(
    "access-control-allow-headers",
    "authorization, content-type, idempotency-key, last-event-id",
  );
  res.setHeader("access-control-expose-headers", "retry-after");
  res.setHeader("access-control-max-age", "600");
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": `${JSON_CONTENT_TYPE}; charset=utf-8`,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body: HttpErrorBody = { error: { code, message } };
  sendJson(res, status, body, headers);
}
