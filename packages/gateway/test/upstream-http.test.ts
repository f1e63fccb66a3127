import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { ContractClient, userTurn } from "../../server/test/support/contract-client";
import { freePort } from "../../server/test/support/postgres";
import { GatewayErrorKind } from "../src/gateway-error";
import { forwardRun } from "../src/upstream/forward-run";
import { postWithNodeHttp } from "../src/upstream/upstream-post";
import { type FakeUpstream, finished, started, startFakeUpstream } from "./support/fake-upstream";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// Without an injected `fetch` the gateway reads its upstream through node:http: per event the
// web streams under `fetch` cost more CPU than the upstream's own SSE writer (bench/RESULTS.md).

const text = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta });
let upstream: FakeUpstream;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startFakeUpstream((request) => ({
    events: [started(request), text("a"), text("b"), finished(request)],
  }));
  running = await startGateway(upstream.url);
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

test("by default the upstream is read without the global fetch, every event forwarded", async () => {
  const global = globalThis.fetch;
  const toUpstream: string[] = [];
  vi.stubGlobal("fetch", (url: string | URL | Request, init?: RequestInit) => {
    if (String(url).startsWith(upstream.url)) toUpstream.push(String(url));
    return global(url, init);
  });
  const threadId = `t-${randomUUID()}`;
  const reader = await new ContractClient(running.url).run(userTurn(threadId, `r-${randomUUID()}`, "hi"));
  expect(reader.types).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "RUN_FINISHED",
  ]);
  expect(upstream.requests.filter((request) => request.body.threadId === threadId)).toHaveLength(1);
  expect(toUpstream).toEqual([]);
});

test("an injected fetch is still what reads the upstream", async () => {
  const calls: string[] = [];
  const injected = await startGateway(upstream.url, {
    fetch: (url, init) => {
      calls.push(url);
      return fetch(url, init);
    },
  });
  try {
    const reader = await new ContractClient(injected.url).run(userTurn(`t-${randomUUID()}`, "r", "hi"));
    expect(reader.types).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "RUN_FINISHED",
    ]);
    expect(calls).toEqual([upstream.url]);
  } finally {
    await injected.close();
  }
});

/** What forwarding to `url` through node:http throws, as its kind. */
async function failureOf(url: string): Promise<string | undefined> {
  const request = { url, body: {}, headers: {}, signal: new AbortController().signal };
  try {
    for await (const _ of forwardRun(postWithNodeHttp, request)) return "an event";
  } catch (error) {
    return (error as { kind?: string }).kind;
  }
  return undefined;
}

test("through node:http a refused connect, an error status and a body that is no stream are typed", async () => {
  expect(await failureOf(`http://127.0.0.1:${await freePort()}/agent`)).toBe(
    GatewayErrorKind.upstreamUnreachable,
  );
  const plain = createServer((request, response) => {
    if (request.url === "/status") response.writeHead(500).end("boom");
    else response.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>");
  });
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  try {
    expect(await failureOf(`${base}/status`)).toBe(GatewayErrorKind.upstreamStatus);
    expect(await failureOf(`${base}/page`)).toBe(GatewayErrorKind.upstreamProtocol);
  } finally {
    plain.closeAllConnections();
    await new Promise((resolve) => plain.close(resolve));
  }
});
