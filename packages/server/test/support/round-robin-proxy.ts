import { createServer, request, type Server } from "node:http";
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
export async function startRoundRobinProxy(targets: () => readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const list = targets();
        const target = new URL(list[next++ % list.length] ?? "http://127.0.0.1:9");
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
