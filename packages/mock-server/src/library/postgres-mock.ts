import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Header, OutcomeCode } from "@agui-outbox/core/protocol";
import {
  BodyTooLargeError,
  createContractServer,
  createHttpServer,
  followRun,
  identifyRequest,
  readBody,
  ServerCode,
  SseStream,
  sendError,
  sendJson,
  setCorsHeaders,
} from "@agui-outbox/server";
import { PostgresStore } from "@agui-outbox/server/postgres";
import { Pool } from "pg";
import { ChaosRequestSchema, FaultAction, FaultPoint } from "../chaos/fault";
import { injectedStatusError } from "../chaos/injected-status";
import { libraryBackgroundDeploy } from "./background-deploy";
import { demoIdentify } from "./demo-identity";
import { type LibraryDeployDeps, libraryDeployAgent } from "./deploy-agent";
import {
  armFaults,
  createMockTables,
  faultsArmed,
  ledgerOf,
  occurrencesOf,
  recordDeploy,
  recordResume,
  resetTables,
  resumesOf,
  tableFaults,
  tableHistory,
} from "./postgres-tables";

export interface PostgresMockOptions {
  readonly databaseUrl: string;
  /** The library's tables and the mock's live in this schema. @default "agui_outbox" */
  readonly schema?: string;
  readonly port?: number;
  readonly host?: string;
  /** Stable across restarts of one instance; distinct per instance. @default a UUID */
  readonly instanceId?: string;
  readonly claimLeaseMs?: number;
  readonly toolDurationMs?: number;
  readonly keepaliveMs?: number;
  /** Called after a `crash` fault abandoned the instance (the CLI exits here). */
  readonly onCrash?: (point: string) => void;
}

export interface PostgresMock {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The mock's contract mode on `@agui-outbox/server` and its Postgres store, so
 * several instances on one database are replicas of one server: claims, runs
 * and logs in the library's tables; faults (`/__chaos`), the ledger
 * (`/__ledger`) and thread history in the mock's. Background runs are the
 * library's too (polled at `/agent/background/poll` on any replica), and so
 * are the inspection routes (`/__occurrences`, `/__resumes`, `/__reset`, read
 * and written in the shared tables). The emulations of servers without the
 * contract (`/__mode`) stay with the in-memory mock.
 */
export async function startPostgresMock(options: PostgresMockOptions): Promise<PostgresMock> {
  const schema = options.schema ?? "agui_outbox";
  const s = `"${schema.replaceAll('"', '""')}"`;
  const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
  const store = await PostgresStore.open({ pool, schema });
  await createMockTables(pool, s);
  const faults = tableFaults(pool, s);
  const sockets = new Set<Socket>();
  const onCrash = options.onCrash ?? (() => {});
  const agentDeps: LibraryDeployDeps = {
    faults,
    record: (entry) => recordDeploy(pool, s, entry),
    history: tableHistory(pool, s),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    randomUUID: () => randomUUID(),
    toolDurationMs: options.toolDurationMs ?? 100,
    crash: (point) => {
      contract.abandon();
      for (const socket of sockets) socket.destroy();
      onCrash(point);
    },
  };
  const contract = createContractServer({
    store,
    ...libraryDeployAgent(agentDeps),
    background: libraryBackgroundDeploy(agentDeps),
    ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
    claimLeaseMs: options.claimLeaseMs ?? 30_000,
    keepaliveMs: options.keepaliveMs ?? 15_000,
    sweepIntervalMs: 250,
    tailPollMs: 1_000,
    identity: { name: "agui-outbox mock server (Postgres)" },
    identify: demoIdentify,
  });
  await contract.sweep();
  const library = contract.handler({ cors: true });
  const tailPollMs = contract.engine.options.tailPollMs;

  async function agentPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const who = await identifyRequest(demoIdentify, req);
    if (!who.ok) return sendError(res, 401, ServerCode.UNAUTHENTICATED, who.message);
    const identity = who.identity;
    let raw: Buffer;
    try {
      raw = await readBody(req, contract.engine.options.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        sendError(res, 413, OutcomeCode.PAYLOAD_TOO_LARGE, error.message);
      else res.destroy();
      return;
    }
    const threadId = threadIdOf(raw);
    const keyHeader = req.headers[Header.idempotencyKey];
    const key = typeof keyHeader === "string" && keyHeader.trim().length > 0 ? keyHeader.trim() : undefined;
    if (key !== undefined) await recordResume(pool, s, { key, threadId, at: Date.now() });
    const early = threadId === null ? undefined : await faults.take(FaultPoint.beforeResponse, threadId);
    if (early?.action === FaultAction.crash) {
      contract.abandon();
      res.destroy();
      onCrash(FaultPoint.beforeResponse);
      return;
    }
    if (early?.action === FaultAction.delay)
      await new Promise((resolve) => setTimeout(resolve, early.delayMs ?? 1000));
    else if (early !== undefined) {
      const status = early.status ?? 503;
      const headers: Record<string, string> =
        early.retryAfterMs === undefined
          ? {}
          : { "retry-after": String(Math.ceil(early.retryAfterMs / 1000)) };
      const { code, message } = injectedStatusError(status);
      sendError(res, status, code, message, headers);
      return;
    }
    const result = await contract.engine.handleRun(raw, key, "/agent/background/poll", identity);
    if (result.kind === "abandoned") res.destroy();
    else if (result.kind === "error") sendError(res, result.status, result.code, result.message);
    else if (result.kind === "json") {
      for (const [name, value] of Object.entries(result.answer.headers ?? {})) res.setHeader(name, value);
      sendJson(res, result.answer.status, result.answer.body);
    } else {
      const drop = threadId === null ? undefined : await faults.take(FaultPoint.midStream, threadId);
      const sse = new SseStream(res, {
        keepaliveMs: contract.engine.options.keepaliveMs,
        dropAfterFrames: drop === undefined ? undefined : (drop.afterEvents ?? 1),
      });
      await followRun(contract.engine.storeFor(identity), result.runId, result.afterSeq, sse, tailPollMs);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setCorsHeaders(res);
    if (contract.engine.abandoned) {
      res.destroy();
      return;
    }
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    if (path === "/agent" && method === "POST") return agentPost(req, res);
    if (path === "/__ledger" && method === "GET") {
      return sendJson(res, 200, { executions: await ledgerOf(pool, s, url.searchParams.get("threadId")) });
    }
    if (path === "/__mode" && method === "GET") return sendJson(res, 200, { mode: "fixed" });
    // The emulations of servers without the contract run in one process's memory by design:
    // on Postgres only the contract mode is offered, so a harness that sets it each run may.
    if (path === "/__mode" && method === "POST") {
      const mode = await readBody(req, 64 * 1024)
        .then((raw) => (JSON.parse(raw.toString("utf8")) as { mode?: unknown } | null)?.mode)
        // An unreadable or invalid body names no mode: it gets the 400 below.
        .catch(() => undefined);
      if (mode === "fixed") return sendJson(res, 200, { mode });
      return sendError(res, 400, OutcomeCode.INVALID_REQUEST, 'only the "fixed" mode runs on Postgres');
    }
    const threadId = url.searchParams.get("threadId");
    if (path === "/__resumes" && method === "GET") {
      return sendJson(res, 200, { resumes: await resumesOf(pool, s, threadId) });
    }
    if (path === "/__occurrences" && method === "GET") {
      return sendJson(res, 200, { occurrences: await occurrencesOf(pool, s, threadId) });
    }
    if (path === "/__chaos" && method === "GET")
      return sendJson(res, 200, { faults: await faultsArmed(pool, s) });
    if (path === "/__reset" && method === "POST") {
      // The body is read only to drain the request; a reset takes no options.
      await readBody(req, 64 * 1024).catch(() => undefined);
      await resetTables(pool, s);
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/__chaos" && method === "POST") {
      let json: unknown;
      try {
        json = JSON.parse((await readBody(req, 64 * 1024)).toString("utf8"));
      } catch {
        return sendError(res, 400, OutcomeCode.INVALID_JSON, "the request body is not valid JSON");
      }
      const parsed = ChaosRequestSchema.safeParse(json);
      if (!parsed.success) return sendError(res, 400, OutcomeCode.INVALID_REQUEST, parsed.error.message);
      await armFaults(pool, s, parsed.data.faults);
      return sendJson(res, 200, { faults: parsed.data.faults });
    }
    library(req, res, () =>
      sendError(res, 404, OutcomeCode.NOT_FOUND_ROUTE, `no route for ${method} ${path} on the Postgres mock`),
    );
  }

  const server = createHttpServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, OutcomeCode.UNAVAILABLE, "internal error in the mock server");
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    async close() {
      if (!contract.engine.abandoned) await contract.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await pool.end();
    },
  };
}

function threadIdOf(raw: Buffer): string | null {
  try {
    const threadId = (JSON.parse(raw.toString("utf8")) as { threadId?: unknown } | null)?.threadId;
    return typeof threadId === "string" ? threadId : null;
  } catch {
    return null;
  }
}
