import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { formatEventId, Header, OutcomeCode, parseEventId } from "@agui-outbox/core/protocol";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  createHttpServer,
  identifyRequest,
  pathId,
  readBody,
  ServerCode,
  SseStream,
  sendError,
  sendJson,
  setCorsHeaders,
} from "@agui-outbox/server";
import { z } from "zod";
import { ChaosRequestSchema } from "./chaos/fault";
import { FaultQueue } from "./chaos/fault-queue";
import { BACKGROUND_POLL_PATH, fixedCapabilities } from "./engine/capabilities";
import { MockInstance } from "./engine/mock-instance";
import { demoIdentify } from "./library/demo-identity";
import { type CrashInfo, MockMode, type MockServerOptions, resolveOptions } from "./options";
import { createStore } from "./store/create-store";

/** The seq to replay after (`Last-Event-ID` wins over `?after=`), or why the cursor is unusable. */
function reattachCursor(req: IncomingMessage, url: URL, runId: string): number | string {
  const lastEventId = req.headers[Header.lastEventId];
  if (typeof lastEventId === "string" && lastEventId.length > 0) {
    const cursor = parseEventId(lastEventId);
    if (cursor === undefined || cursor.runId !== runId) return "Last-Event-ID is not a cursor of this run";
    return cursor.seq;
  }
  const after = url.searchParams.get("after");
  if (after === null) return 0;
  if (!/^(0|[1-9][0-9]*)$/.test(after)) return "?after= must be a non-negative integer";
  return Number(after);
}

const ModeRequestSchema = z.object({ mode: z.enum(Object.values(MockMode) as [MockMode, ...MockMode[]]) });

export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:54321`; the agent lives at `${url}/agent`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The current mode (`POST /__mode` changes it). */
  readonly mode: MockMode;
  /** Settles when a `crash` fault killed this instance. */
  readonly crashed: Promise<CrashInfo>;
  /** Stops the server: in-flight runs stop writing, open streams are cut. */
  close(): Promise<void>;
}

/** Starts the mock AG-UI server. Resolves once it listens. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const resolved = resolveOptions(options);
  const faults = new FaultQueue();
  const sockets = new Set<Socket>();
  let resolveCrashed: (info: CrashInfo) => void = () => {};
  const crashed = new Promise<CrashInfo>((resolve) => {
    resolveCrashed = resolve;
  });

  // Bounded headers and request time: a slowloris or a stalled body is cut (see createHttpServer).
  const server = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, OutcomeCode.UNAVAILABLE, "internal error in the mock server");
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    // The timeout is set per request (Node resets it between requests); this listener cuts it.
    socket.on("timeout", () => socket.destroy());
    socket.setTimeout(resolved.idleTimeoutMs);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const teardown = () => {
    server.close();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  /** Every POST /agent that carried an Idempotency-Key (a resume or a background start), in order. */
  const resumesReceived: Array<{
    readonly key: string;
    readonly threadId: string | null;
    /** When it arrived (the server's clock, epoch ms): waits are judged here, not in the browser. */
    readonly at: number;
  }> = [];
  const instance = new MockInstance({
    options: resolved,
    store: createStore(resolved.store),
    faults,
    crash: (point) => {
      teardown();
      const info: CrashInfo = { point };
      resolveCrashed(info);
      resolved.onCrash(info);
    },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.socket.setTimeout(resolved.idleTimeoutMs);
    setCorsHeaders(res);
    if (instance.dead) {
      res.destroy();
      return;
    }
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const path = url.pathname.replace(/\/+$/, "") || "/";

    if (method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }

    const contractRoute = path === "/agent" || path.startsWith("/agent/");
    const who = contractRoute ? await identifyRequest(demoIdentify, req) : { ok: true, identity: undefined };
    if (!who.ok) return sendError(res, 401, ServerCode.UNAUTHENTICATED, "this request names no usable user");
    const identity = who.identity;
    if (path === "/agent" && method === "POST") return handleAgentPost(req, res, identity);
    if (path === BACKGROUND_POLL_PATH && method === "POST" && instance.mode === MockMode.fixed) {
      return handleBackgroundPoll(req, res, identity);
    }
    if (path === "/agent/capabilities" && method === "GET") {
      // Agent Framework's AG-UI endpoint has no capabilities route: its FastAPI app
      // answers 404 with this body, and so do the emulations of it.
      if (instance.mode !== MockMode.fixed) return sendJson(res, 404, { detail: "Not Found" });
      return sendJson(res, 200, fixedCapabilities(resolved));
    }
    const runMatch = /^\/agent\/runs\/([^/]+)(\/events)?$/.exec(path);
    // Servers without the contract offer no run status and no re-attach.
    if (runMatch !== null && method === "GET" && instance.mode === MockMode.fixed) {
      const parsed = pathId(runMatch[1] ?? "", "runId");
      if (!parsed.ok) return sendError(res, 400, ServerCode.INVALID_ID, parsed.message);
      const runId = parsed.id;
      return runMatch[2] === undefined
        ? handleRunStatus(res, runId, identity)
        : handleReattach(req, res, url, runId, identity);
    }
    if (path === "/__ledger" && method === "GET") {
      // ?threadId= lets suites that share one server count only their own thread's side effects.
      const threadId = url.searchParams.get("threadId");
      const executions = instance
        .ledger()
        .filter((entry) => threadId === null || entry.threadId === threadId);
      return sendJson(res, 200, { executions });
    }
    if (path === "/__resumes" && method === "GET") {
      // What reached the server, per Idempotency-Key: tests count sends here, not in the browser.
      const threadId = url.searchParams.get("threadId");
      const resumes = resumesReceived.filter((entry) => threadId === null || entry.threadId === threadId);
      return sendJson(res, 200, { resumes });
    }
    if (path === "/__occurrences" && method === "GET") {
      return sendJson(res, 200, { occurrences: instance.occurrences(url.searchParams.get("threadId")) });
    }
    if (path === "/__chaos" && method === "GET") return sendJson(res, 200, { faults: faults.list() });
    if (path === "/__chaos" && method === "POST") return handleChaos(req, res);
    if (path === "/__reset" && method === "POST") {
      await drainBody(req, res);
      if (res.headersSent) return;
      instance.reset();
      resumesReceived.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/__mode" && method === "GET") return sendJson(res, 200, { mode: instance.mode });
    if (path === "/__mode" && method === "POST") return handleMode(req, res);
    return sendError(res, 404, OutcomeCode.NOT_FOUND_ROUTE, `no route for ${method} ${path}`);
  }

  async function handleAgentPost(
    req: IncomingMessage,
    res: ServerResponse,
    identity: string | undefined,
  ): Promise<void> {
    const raw = await drainBody(req, res);
    if (raw === undefined) return;
    const keyHeader = req.headers[Header.idempotencyKey];
    const key = typeof keyHeader === "string" && keyHeader.trim().length > 0 ? keyHeader.trim() : undefined;
    if (key !== undefined) resumesReceived.push({ key, threadId: threadIdOf(raw), at: resolved.clock.now() });
    const result = await instance.handleAgentPost(raw, key, identity);
    if (result.kind === "crashed") return;
    if (result.kind === "error") {
      sendError(res, result.status, result.code, result.message, result.headers);
      return;
    }
    if (result.kind === "json") {
      sendJson(res, result.status, result.body, result.headers);
      return;
    }
    if (result.kind === "direct") {
      result.start(new SseStream(res, { keepaliveMs: 0, dropAfterFrames: result.dropAfterFrames }));
      return;
    }
    const stream = new SseStream(res, {
      keepaliveMs: resolved.keepaliveMs,
      dropAfterFrames: result.dropAfterFrames,
    });
    await instance.streamContract(stream, result.runId, result.afterSeq, identity);
  }

  async function handleBackgroundPoll(
    req: IncomingMessage,
    res: ServerResponse,
    identity: string | undefined,
  ): Promise<void> {
    const raw = await drainBody(req, res);
    if (raw === undefined) return;
    const answer = await instance.pollBackground(raw, identity);
    if (answer === "abandoned") res.destroy();
    else sendJson(res, answer.status, answer.body, answer.headers);
  }

  async function handleRunStatus(res: ServerResponse, runId: string, identity: string | undefined) {
    const status = await instance.runStatus(runId, identity);
    if (status === undefined) sendError(res, 404, OutcomeCode.RUN_NOT_FOUND, "no such run");
    else sendJson(res, 200, status);
  }

  async function handleReattach(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    runId: string,
    identity: string | undefined,
  ): Promise<void> {
    const afterSeq = reattachCursor(req, url, runId);
    if (typeof afterSeq === "string") {
      sendError(res, 400, OutcomeCode.INVALID_REQUEST, afterSeq);
      return;
    }
    const target = await instance.attachTarget(runId, identity);
    if (target.kind === "unknown") {
      sendError(res, 404, OutcomeCode.RUN_NOT_FOUND, "no such run");
      return;
    }
    if (target.kind === "expired") {
      sendError(res, 410, OutcomeCode.EVENT_LOG_EXPIRED, "this run's event log has expired; hydrate instead");
      return;
    }
    const stream = new SseStream(res, { keepaliveMs: resolved.keepaliveMs });
    if (target.kind === "ok") {
      await instance.streamContract(stream, runId, afterSeq, identity);
      return;
    }
    // A background run's log grows only inside polls: what is stored is all there is until the next one.
    for (const frame of (await instance.backgroundFrames(runId, afterSeq, identity)) ?? []) {
      stream.writeFrame(formatEventId({ runId, seq: frame.seq }), frame.event);
    }
    stream.end();
  }

  async function handleChaos(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = await readJson(req, res);
    if (json === undefined) return;
    const parsed = ChaosRequestSchema.safeParse(json.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
      return sendError(res, 400, OutcomeCode.INVALID_REQUEST, `invalid fault at ${where}: ${issue?.message}`);
    }
    faults.add(parsed.data.faults);
    sendJson(res, 200, { faults: faults.list() });
  }

  async function handleMode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = await readJson(req, res);
    if (json === undefined) return;
    const parsed = ModeRequestSchema.safeParse(json.value);
    if (!parsed.success) {
      const known = Object.values(MockMode).join(", ");
      return sendError(res, 400, OutcomeCode.INVALID_REQUEST, `the body must be {"mode": one of ${known}}`);
    }
    const mode = parsed.data.mode;
    instance.mode = mode;
    resolved.onModeChange(mode);
    sendJson(res, 200, { mode });
  }

  /** The body, or undefined once an error answer was sent. */
  async function drainBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
    try {
      return await readBody(req, resolved.maxBodyBytes, resolved.bodyTimeoutMs);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        sendError(res, 413, OutcomeCode.PAYLOAD_TOO_LARGE, `the request body exceeds ${error.limit} bytes`, {
          connection: "close",
        });
      } else if (error instanceof BodyTimeoutError) {
        sendError(res, 408, ServerCode.REQUEST_TIMEOUT, error.message, { connection: "close" });
        res.once("finish", () => req.socket.destroy());
      } else {
        res.destroy();
      }
      return undefined;
    }
  }

  async function readJson(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ value: unknown } | undefined> {
    const raw = await drainBody(req, res);
    if (raw === undefined) return undefined;
    try {
      return { value: JSON.parse(raw.toString("utf8")) };
    } catch {
      sendError(res, 400, OutcomeCode.INVALID_JSON, "the request body is not valid JSON");
      return undefined;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${hostForUrl}:${address.port}`,
    port: address.port,
    host: resolved.host,
    get mode() {
      return instance.mode;
    },
    crashed,
    close: async () => {
      if (!instance.dead) instance.markDead();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
    },
  };
}

/** The body's threadId, for counting; null when the body is not a JSON object naming one. */
function threadIdOf(raw: Buffer): string | null {
  try {
    const body: unknown = JSON.parse(raw.toString("utf8"));
    const threadId = (body as { threadId?: unknown } | null)?.threadId;
    return typeof threadId === "string" ? threadId : null;
  } catch {
    return null;
  }
}
