import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A load balancer in 40 lines: each request goes to the next replica in turn;
 * a replica that refuses the connection (dead) is skipped for the next one, as
 * a balancer's health check would. Streams pass through unbuffered; a response
 * the replica cuts is cut for the client too.
 */
export interface ProxyChaos {
  /** Cut the response to this request after N SSE events (a dropped connection), or undefined. */
  readonly dropAfterEvents: (body: Buffer) => number | undefined;
}

export interface ProxyOptions {
  /** @default any free port */
  readonly port?: number;
  /** Answers a request itself (a control route of the balancer) and returns true, or returns false. */
  readonly control?: (req: IncomingMessage, body: Buffer, res: ServerResponse) => boolean;
}

export async function startRoundRobinProxy(
  targets: () => readonly string[],
  chaos?: ProxyChaos,
  options: ProxyOptions = {},
): Promise<RoundRobinProxy> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (options.control?.(req, body, res)) return;
      const dropAfter = req.method === "POST" ? chaos?.dropAfterEvents(body) : undefined;
      const forward = (tries: number) => {
        const list = targets();
        const target = new URL(list[next++ % list.length] ?? "http://127.0.0.1:9");
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: endToEndHeaders(req.headers),
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            if (dropAfter !== undefined) {
              cutAfterEvents(answer, res, dropAfter);
              return;
            }
            answer.pipe(res);
            answer.on("close", () => {
              if (!answer.complete) res.destroy();
            });
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && tries < list.length) forward(tries + 1);
          else if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        res.on("close", () => upstream.destroy());
        upstream.end(body);
      };
      forward(1);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The request's headers without the hop-by-hop ones (RFC 9110 §7.6.1): a client's
 * `Connection: close` is about its connection to the proxy; forwarded on a kept-alive
 * connection to a replica, the replica refuses the next request on it with a 400.
 */
function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const forwarded = { ...headers };
  for (const name of ["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"])
    delete forwarded[name];
  return forwarded;
}

/** Passes SSE events through until `limit` of them went out, then destroys the client's connection. */
function cutAfterEvents(answer: IncomingMessage, res: ServerResponse, limit: number): void {
  let pending = "";
  let sent = 0;
  answer.on("data", (chunk: Buffer) => {
    if (sent >= limit) return;
    pending += chunk.toString();
    let end = pending.indexOf("\n\n");
    while (end >= 0 && sent < limit) {
      const block = pending.slice(0, end + 2);
      pending = pending.slice(end + 2);
      res.write(block);
      if (block.includes("data:")) sent += 1;
      end = pending.indexOf("\n\n");
    }
    if (sent >= limit) res.write("", () => res.destroy());
  });
  answer.on("end", () => res.end(pending));
}
