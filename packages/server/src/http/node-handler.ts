import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AgentCapabilities,
  AgentRoute,
  formatEventId,
  Header,
  MetadataKey,
  OutcomeCode,
  parseEventId,
  RECOVERY_CONTRACT_VERSION,
  type RecoveryCapability,
  type RunStatus,
} from "@agui-outbox/core/protocol";
import type { BackgroundAnswer } from "../engine/background-engine";
import type { ContractEngine } from "../engine/contract-engine";
import { pathId } from "../engine/ids";
import { ServerCode } from "../server-codes";
import { type BackgroundRunRecord, isBackgroundEnded, lastSeqOf } from "../store/background-records";
import type { ContractStore } from "../store/contract-store";
import { followRun } from "./follow-run";
import { identifyRequest } from "./identify-request";
import { BodyTimeoutError, BodyTooLargeError, readBody } from "./read-body";
import { sendError, sendJson, setCorsHeaders } from "./respond";
import { SseStream } from "./sse-stream";

export interface NodeHandlerOptions {
  /** Where the agent is mounted; the contract's routes hang below it. Use "" under a framework's own mount path. @default "/agent" */
  readonly basePath?: string;
  /** Answer CORS preflights and let any origin read the responses. @default false */
  readonly cors?: boolean;
  /** A POST's body must arrive within this, or the request gets 408 and its connection closes. @default 30000 */
  readonly bodyTimeoutMs?: number;
  /**
   * A connection with nothing read or written for this long is cut (a client
   * that stopped reading a stream). Keep it above `keepaliveMs`, whose comments
   * keep a healthy stream busy. @default 60000, or 4 × keepaliveMs when larger
   */
  readonly idleTimeoutMs?: number;
}

/** `(req, res, next?)`: node:http's request listener, and Express/Connect middleware (unknown routes go to `next`). */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

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

export function capabilitiesOf(engine: ContractEngine, basePath = "/agent"): AgentCapabilities {
  const options = engine.options;
  const recovery: RecoveryCapability = {
    version: RECOVERY_CONTRACT_VERSION,
    idempotencyWindowMs: options.idempotencyWindowMs,
    eventLogRetentionMs: options.eventLogRetentionMs,
    claimLeaseMs: options.claimLeaseMs,
    keepaliveMs: options.keepaliveMs,
    ...(options.background === undefined
      ? {}
      : { background: { pollPath: `${basePath}${AgentRoute.backgroundPoll}` } }),
  };
  return {
    identity: {
      name: options.identity.name,
      ...(options.identity.version ? { version: options.identity.version } : {}),
    },
    transport: { streaming: true, resumable: true },
    tools: {
      supported: true,
      items: Object.entries(options.tools).map(([name, tool]) => ({
        name,
        description: tool.description ?? name,
        ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
      })),
    },
    humanInTheLoop: { supported: true, approvals: true, interrupts: true, approveWithEdits: true },
    custom: { [MetadataKey.recovery]: recovery },
  };
}

function sendAnswer(res: ServerResponse, answer: BackgroundAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  sendJson(res, answer.status, answer.body);
}

/** `GET {base}/runs/:runId` of a background run: its status and current continuation token. */
export function backgroundStatus(run: BackgroundRunRecord): RunStatus {
  // A run waiting for an answer ends its log with RUN_FINISHED(interrupt), yet goes on.
  const ended = isBackgroundEnded(run);
  const terminal = run.frames.at(-1)?.event;
  return {
    runId: run.runId,
    threadId: run.threadId,
    status: !ended ? "running" : terminal?.type === "RUN_FINISHED" ? "finished" : "error",
    lastSeq: lastSeqOf(run),
    terminal: ended && terminal !== undefined ? { ...terminal } : null,
    continuationToken: run.token,
  };
}

/**
 * The contract's routes on Node's request/response types:
 * `POST {base}` (run or resume), `GET {base}/capabilities`,
 * `GET {base}/runs/:runId` (status), `GET {base}/runs/:runId/events` (re-attach),
 * `POST {base}/background/poll` (background runs).
 */
export function createNodeHandler(engine: ContractEngine, options: NodeHandlerOptions = {}): NodeHandler {
  const base = (options.basePath ?? "/agent").replace(/\/$/, "");
  const keepaliveMs = engine.options.keepaliveMs;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? Math.max(60_000, 4 * keepaliveMs);
  // One listener per socket; the timeout itself is set per request, as Node resets it between requests.
  const bounded = new WeakSet<object>();

  const stream = async (res: ServerResponse, store: ContractStore, runId: string, afterSeq: number) => {
    const sse = new SseStream(res, { keepaliveMs });
    // A dead process's streams are cut: so are an abandoned instance's.
    const cut = () => res.destroy();
    engine.abandonSignal.addEventListener("abort", cut, { once: true });
    res.once("close", () => engine.abandonSignal.removeEventListener("abort", cut));
    await followRun(store, runId, afterSeq, sse, engine.options.tailPollMs);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => {
    // An abandoned instance answers nothing, as a dead process would not.
    if (engine.abandoned) {
      res.destroy();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (path !== base && !path.startsWith(`${base}/`)) {
      if (next) next();
      else sendError(res, 404, OutcomeCode.NOT_FOUND_ROUTE, `no route ${req.method} ${path}`);
      return;
    }
    const route = path.slice(base.length) || "/";
    const socket = req.socket;
    if (!bounded.has(socket)) {
      bounded.add(socket);
      socket.on("timeout", () => socket.destroy());
    }
    socket.setTimeout(idleTimeoutMs);
    if (options.cors) setCorsHeaders(res);
    if (req.method === "OPTIONS" && options.cors) {
      res.writeHead(204).end();
      return;
    }
    if (req.method === "GET" && route === "/capabilities") {
      sendJson(res, 200, capabilitiesOf(engine, base));
      return;
    }
    const who = await identifyRequest(engine.options.identify, req);
    if (!who.ok) {
      sendError(res, 401, ServerCode.UNAUTHENTICATED, who.message);
      return;
    }
    const identity = who.identity;
    const store = engine.storeFor(identity);
    const pollPath = `${base}${AgentRoute.backgroundPoll}`;
    if (req.method === "POST" && (route === "/" || route === AgentRoute.backgroundPoll)) {
      let raw: Buffer;
      try {
        raw = await readBody(req, engine.options.maxBodyBytes, bodyTimeoutMs);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          sendError(res, 413, OutcomeCode.PAYLOAD_TOO_LARGE, error.message);
        } else if (error instanceof BodyTimeoutError) {
          // The rest of the body may never come: answer, then close the connection.
          res.setHeader("connection", "close");
          sendError(res, 408, ServerCode.REQUEST_TIMEOUT, error.message);
          res.once("finish", () => req.socket.destroy());
        }
        return;
      }
      if (route === AgentRoute.backgroundPoll) {
        const answer = await engine.pollBackground(raw, identity);
        if (engine.abandoned) res.destroy();
        else sendAnswer(res, answer);
        return;
      }
      const key = req.headers[Header.idempotencyKey];
      const id = typeof key === "string" && key.length > 0 ? key : undefined;
      const result = await engine.handleRun(raw, id, pollPath, identity, req);
      if (result.kind === "abandoned") res.destroy();
      else if (result.kind === "error") sendError(res, result.status, result.code, result.message);
      else if (result.kind === "json") sendAnswer(res, result.answer);
      else await stream(res, store, result.runId, result.afterSeq);
      return;
    }
    const runMatch = req.method === "GET" ? /^\/runs\/([^/]+)(\/events)?$/.exec(route) : null;
    if (runMatch !== null) {
      const parsed = pathId(runMatch[1] ?? "", "runId");
      if (!parsed.ok) {
        sendError(res, 400, ServerCode.INVALID_ID, parsed.message);
        return;
      }
      const runId = parsed.id;
      const run = await store.run(runId);
      const background = run === undefined ? await store.background(runId) : undefined;
      if (background !== undefined) {
        if (runMatch[2] === undefined) {
          sendJson(res, 200, backgroundStatus(background));
          return;
        }
        const afterSeq = reattachCursor(req, url, runId);
        if (typeof afterSeq === "string") {
          sendError(res, 400, OutcomeCode.INVALID_REQUEST, afterSeq);
          return;
        }
        // A background run's log grows only inside polls: what is stored is all there is until the next one.
        const sse = new SseStream(res, { keepaliveMs });
        for (const frame of background.frames) {
          if (frame.seq > afterSeq) sse.writeFrame(formatEventId({ runId, seq: frame.seq }), frame.event);
        }
        sse.end();
        return;
      }
      if (run === undefined) {
        sendError(res, 404, OutcomeCode.RUN_NOT_FOUND, `no run ${runId}`);
        return;
      }
      if (runMatch[2] === undefined) {
        const terminal = run.terminal;
        const status: RunStatus = {
          runId,
          threadId: run.threadId,
          status: terminal === null ? "running" : terminal.type === "RUN_FINISHED" ? "finished" : "error",
          lastSeq: run.lastSeq,
          terminal: terminal === null ? null : { ...terminal },
          continuationToken: null,
        };
        sendJson(res, 200, status);
        return;
      }
      if (run.expired) {
        sendError(
          res,
          410,
          OutcomeCode.EVENT_LOG_EXPIRED,
          `the event log of ${runId} has expired; hydrate the thread`,
        );
        return;
      }
      const afterSeq = reattachCursor(req, url, runId);
      if (typeof afterSeq === "string") {
        sendError(res, 400, OutcomeCode.INVALID_REQUEST, afterSeq);
        return;
      }
      await stream(res, store, runId, afterSeq);
      return;
    }
    sendError(res, 404, OutcomeCode.NOT_FOUND_ROUTE, `no route ${req.method} ${path}`);
  };

  return (req, res, next) => {
    handle(req, res, next).catch((error: unknown) => {
      if (!res.headersSent)
        sendError(res, 500, OutcomeCode.UNAVAILABLE, "internal error in the contract server");
      else res.destroy();
      void error;
    });
  };
}
