import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, expect, test } from "vitest";
import {
  type ContractServer,
  createContractServer,
  createHttpServer,
  MemoryStore,
  type NodeHandlerOptions,
} from "../src/index";
import { memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";

const open: { contract: ContractServer; http: Server }[] = [];

afterEach(async () => {
  for (const { contract, http } of open.splice(0)) {
    await contract.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

/** A server on a free port; `server` picks plain node:http or the bounded one. */
async function listen(handlerOptions: NodeHandlerOptions, bounded?: { headersTimeoutMs: number }) {
  const { agent, tools } = scriptedDeployAgent(memoryLedger());
  const contract = createContractServer({ store: new MemoryStore(), agent, tools, sweepIntervalMs: 0 });
  const handler = contract.handler(handlerOptions);
  const http = bounded === undefined ? createServer(handler) : createHttpServer(handler, bounded);
  open.push({ contract, http });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return (http.address() as AddressInfo).port;
}

/** What the server sent before it closed the connection, and when it closed it. */
function closed(socket: Socket, started: number): Promise<{ text: string; afterMs: number }> {
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk.toString();
  });
  socket.on("error", () => {});
  return new Promise((resolve) => socket.on("close", () => resolve({ text, afterMs: Date.now() - started })));
}

function dial(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
  });
}

// Cut "within the timeout": Node checks on an interval of a quarter of it, plus a busy machine's slack.
const WITHIN = 3_000;

test("a slowloris (headers trickling forever) is cut once the headers timeout passes", async () => {
  const port = await listen({}, { headersTimeoutMs: 500 });
  const socket = await dial(port);
  const started = Date.now();
  const end = closed(socket, started);
  socket.write("GET /agent/capabilities HTTP/1.1\r\nHost: x\r\n");
  // The attack: a header line now and then, so the connection is never idle.
  const trickle = setInterval(() => socket.write("X-Slow: 1\r\n"), 100);
  const { text, afterMs } = await end;
  clearInterval(trickle);
  expect(afterMs).toBeGreaterThanOrEqual(500);
  expect(afterMs).toBeLessThan(WITHIN);
  expect(text).not.toContain("200 OK");
});

test("a POST stalled mid-body gets 408 REQUEST_TIMEOUT and its connection closes", async () => {
  const port = await listen({ bodyTimeoutMs: 300 });
  const socket = await dial(port);
  const started = Date.now();
  const end = closed(socket, started);
  socket.write(
    'POST /agent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"threadId":',
  );
  const { text, afterMs } = await end;
  expect(text).toMatch(/^HTTP\/1\.1 408/);
  expect(text).toContain("REQUEST_TIMEOUT");
  expect(afterMs).toBeLessThan(WITHIN);
});

test("a connection that goes quiet mid-request is cut after the idle timeout", async () => {
  const port = await listen({ idleTimeoutMs: 300, bodyTimeoutMs: 60_000 });
  const socket = await dial(port);
  const started = Date.now();
  const end = closed(socket, started);
  socket.write("POST /agent HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
  const { afterMs } = await end;
  expect(afterMs).toBeGreaterThanOrEqual(300);
  expect(afterMs).toBeLessThan(WITHIN);
});

test("the idle timeout holds for every request on a keep-alive connection, not just the first", async () => {
  const port = await listen({ idleTimeoutMs: 300, bodyTimeoutMs: 60_000 });
  const socket = await dial(port);
  const started = Date.now();
  const end = closed(socket, started);
  const answered = new Promise((resolve) => socket.once("data", resolve));
  socket.write("GET /agent/capabilities HTTP/1.1\r\nHost: x\r\n\r\n");
  await answered;
  socket.write("POST /agent HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
  const { text, afterMs } = await end;
  expect(text).toMatch(/^HTTP\/1\.1 200/);
  expect(afterMs).toBeLessThan(WITHIN);
});
