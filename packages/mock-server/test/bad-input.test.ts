import { connect } from "node:net";
import { expect, test } from "vitest";
import { askToDeploy, ledger, post, start } from "./support/harness";

async function errorOf(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: string; message: string } },
  };
}

test("malformed JSON is 400 INVALID_JSON", async () => {
  const server = await start();
  const { status, body } = await errorOf(await post(server, '{"threadId": "t", '));
  expect(status).toBe(400);
  expect(body.error.code).toBe("INVALID_JSON");
});

test("a missing threadId is 400 INVALID_REQUEST naming the field", async () => {
  const server = await start();
  const { status, body } = await errorOf(await post(server, JSON.stringify({ runId: "r", messages: [] })));
  expect(status).toBe(400);
  expect(body.error).toMatchObject({ code: "INVALID_REQUEST" });
  expect(body.error.message).toContain("threadId");
});

test("a body that is not a RunAgentInput is 400, without echoing its content", async () => {
  const server = await start();
  const secret = "my-secret-edited-value";
  const { status, body } = await errorOf(
    await post(
      server,
      JSON.stringify({ threadId: "t", runId: "r", messages: [{ role: "user", content: secret }] }),
    ),
  );
  expect(status).toBe(400);
  expect(body.error.code).toBe("INVALID_REQUEST");
  expect(body.error.message).not.toContain(secret);
});

test("a body over maxBodyBytes is 413 PAYLOAD_TOO_LARGE and the server keeps serving", async () => {
  const server = await start({ maxBodyBytes: 1024 });
  const big = JSON.stringify({ threadId: "t", runId: "r", messages: [], padding: "x".repeat(4096) });
  const { status, body } = await errorOf(await post(server, big));
  expect(status).toBe(413);
  expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
  await askToDeploy(server, "t-after-413");
});

test("the default limit is 1 MiB", async () => {
  const server = await start();
  const big = JSON.stringify({ threadId: "t", runId: "r", messages: [], padding: "x".repeat(1024 * 1024) });
  expect((await post(server, big)).status).toBe(413);
});

test("unknown routes are 404; CORS preflight allows the contract's headers", async () => {
  const server = await start();
  const { status, body } = await errorOf(await fetch(`${server.url}/nope`));
  expect(status).toBe(404);
  expect(body.error.code).toBe("ROUTE_NOT_FOUND");

  const preflight = await fetch(`${server.url}/agent`, {
    method: "OPTIONS",
    headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  expect(preflight.headers.get("access-control-allow-headers")).toContain("idempotency-key");
  expect(preflight.headers.get("access-control-allow-headers")).toContain("last-event-id");
  expect(preflight.headers.get("access-control-expose-headers")).toContain("retry-after");
});

test("invalid faults are refused with 400 and nothing is armed", async () => {
  const server = await start();
  for (const faults of [
    [{ point: "nowhere", action: "fail" }],
    [{ point: "after-tool", action: "status", status: 503 }],
    [{ point: "mid-stream", action: "fail" }],
    [],
  ]) {
    const response = await fetch(`${server.url}/__chaos`, {
      method: "POST",
      body: JSON.stringify({ faults }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_REQUEST");
  }
  const malformed = await fetch(`${server.url}/__chaos`, { method: "POST", body: "{" });
  expect(malformed.status).toBe(400);
  const pending = (await (await fetch(`${server.url}/__chaos`)).json()) as { faults: unknown[] };
  expect(pending.faults).toEqual([]);
});

test("reset clears threads, the ledger and faults; mode can be read and set", async () => {
  const server = await start();
  await askToDeploy(server, "t-reset");
  await fetch(`${server.url}/__chaos`, {
    method: "POST",
    body: JSON.stringify({ faults: [{ point: "after-tool", action: "fail" }] }),
  });
  expect((await fetch(`${server.url}/__reset`, { method: "POST" })).status).toBe(200);
  expect(await ledger(server)).toHaveLength(0);
  const pending = (await (await fetch(`${server.url}/__chaos`)).json()) as { faults: unknown[] };
  expect(pending.faults).toEqual([]);
  const hydrated = await post(server, JSON.stringify({ threadId: "t-reset", runId: "h", messages: [] }));
  expect(await hydrated.text()).toContain('"messages":[]');

  expect(await (await fetch(`${server.url}/__mode`)).json()).toEqual({ mode: "fixed" });
  const unknown = await fetch(`${server.url}/__mode`, {
    method: "POST",
    body: JSON.stringify({ mode: "nope" }),
  });
  expect(unknown.status).toBe(400);
  const set = await fetch(`${server.url}/__mode`, {
    method: "POST",
    body: JSON.stringify({ mode: "fixed" }),
  });
  expect(await set.json()).toEqual({ mode: "fixed" });
});

test("a POST stalled mid-body gets 408 REQUEST_TIMEOUT and its connection closes", async () => {
  const server = await start({ bodyTimeoutMs: 200 });
  const socket = connect(server.port, "127.0.0.1");
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk.toString();
  });
  const closed = new Promise((resolve) => socket.on("close", resolve));
  socket.write('POST /agent HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"threadId":');
  await closed;
  expect(text).toMatch(/^HTTP\/1\.1 408/);
  expect(text).toContain("REQUEST_TIMEOUT");
});

test("a connection that goes quiet is cut after the idle timeout", async () => {
  const server = await start({ idleTimeoutMs: 200 });
  const socket = connect(server.port, "127.0.0.1");
  const closed = new Promise((resolve) => socket.on("close", resolve));
  socket.write("GET /agent/capabilities HTTP/1.1\r\nHost: x\r\n");
  await closed;
  expect(socket.destroyed).toBe(true);
});
