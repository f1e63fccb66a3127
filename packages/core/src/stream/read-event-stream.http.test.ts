import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { collect, runFrames } from "../../test/support/sse-fixtures";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { readEventStream } from "./read-event-stream";

// The reader over a real socket and Node's own fetch (undici), where a dropped
// connection surfaces as a rejected read rather than a clean EOF.

type Handler = (res: ServerResponse) => void;
const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((_req, res) => handler(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function startStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
  res.flushHeaders();
}

const frames = runFrames().split(/(?<=\n\n)/);

test("a run served over HTTP ends with its terminal event", async () => {
  const url = await serve((res) => {
    startStream(res);
    for (const f of frames) res.write(`: keepalive\n\n${f}`);
    res.end();
  });
  const result = await collect(readEventStream(await fetch(url)));
  expect(result.error).toBeUndefined();
  expect(result.events).toHaveLength(5);
  expect(result.end?.cursor).toEqual({ runId: "run-1", seq: 5 });
});

test("a connection destroyed mid-stream is stream_ended after the frames that arrived", async () => {
  const url = await serve((res) => {
    startStream(res);
    res.write(frames.slice(0, 2).join(""), () => res.destroy());
  });
  const result = await collect(readEventStream(await fetch(url)));
  expect(result.events.map((e) => e.cursor?.seq)).toEqual([1, 2]);
  expect(result.error).toBeInstanceOf(OutboxError);
  expect((result.error as OutboxError).kind).toBe(ErrorKind.streamEnded);
});

test("a server that sends headers and then nothing stalls", async () => {
  const url = await serve(startStream);
  const result = await collect(readEventStream(await fetch(url), { stallTimeoutMs: 50 }));
  expect((result.error as OutboxError).kind).toBe(ErrorKind.streamStalled);
});

test("aborting the fetch's own signal mid-stream rejects with its reason", async () => {
  const url = await serve((res) => {
    startStream(res);
    res.write(frames[0] ?? "");
  });
  const abort = new AbortController();
  const stream = readEventStream(await fetch(url, { signal: abort.signal }), { signal: abort.signal });
  expect((await stream.next()).value).toMatchObject({ cursor: { seq: 1 } });
  const reason = new Error("user signed out");
  const next = stream.next();
  abort.abort(reason);
  await expect(next).rejects.toBe(reason);
});
