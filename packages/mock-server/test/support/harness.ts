import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Interrupt } from "@agui-outbox/core/protocol";
import { afterEach, expect } from "vitest";
import type { Fault, LedgerEntry, MockServer, MockServerOptions } from "../../src/index";
import { startMockServer } from "../../src/index";
import { SseReader } from "./sse-reader";

const servers: MockServer[] = [];
const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts a server on an ephemeral port; it is closed after the test. */
export async function start(options: MockServerOptions = {}): Promise<MockServer> {
  const server = await startMockServer({ toolDurationMs: 5, ...options, port: 0 });
  servers.push(server);
  return server;
}

export function tempStatePath(): string {
  const dir = mkdtempSync(join(tmpdir(), "mock-server-test-"));
  tempDirs.push(dir);
  return join(dir, "state.json");
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse("2026-03-01T09:00:00.000Z")) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A `sleep` that only returns when the test releases it: holds a tool mid-execution. */
export function gatedSleep() {
  const waiting: (() => void)[] = [];
  return {
    sleep: (_ms: number) => new Promise<void>((resolve) => waiting.push(resolve)),
    get pending() {
      return waiting.length;
    },
    releaseAll: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

export function post(
  server: MockServer,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}/agent`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

export interface Streamed {
  readonly response: Response;
  readonly reader: SseReader;
}

/** POSTs and reads the SSE answer to its end. Fails the test on a non-SSE answer. */
export async function postAndRead(
  server: MockServer,
  body: string,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  const { reader } = await postStream(server, body, headers);
  await reader.done;
  return reader;
}

export async function postStream(
  server: MockServer,
  body: string,
  headers: Record<string, string> = {},
): Promise<Streamed> {
  const response = await post(server, body, headers);
  expect(response.status, await peekError(response)).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  return { response, reader: new SseReader(response) };
}

async function peekError(response: Response): Promise<string> {
  if (response.status === 200) return "";
  return response.clone().text();
}

export function userTurn(threadId: string, runId: string, text: string): string {
  return JSON.stringify({
    threadId,
    runId,
    messages: [{ id: `${runId}-user`, role: "user", content: text }],
    tools: [],
    context: [],
  });
}

export interface ResumeSpec {
  readonly threadId: string;
  readonly runId: string;
  readonly interruptId: string;
  readonly key: string;
  readonly status?: "resolved" | "cancelled";
  readonly payload?: unknown;
}

/** The exact bytes a client sends (and re-sends on a retry) for one decision. */
export function resumeBody(spec: ResumeSpec): string {
  const entry: Record<string, unknown> = {
    interruptId: spec.interruptId,
    status: spec.status ?? "resolved",
    metadata: { "x-idempotency-key": spec.key },
  };
  if (spec.payload !== undefined) entry.payload = spec.payload;
  return JSON.stringify({ threadId: spec.threadId, runId: spec.runId, messages: [], resume: [entry] });
}

export function resume(server: MockServer, spec: ResumeSpec): Promise<SseReader> {
  return postAndRead(server, resumeBody(spec), { "idempotency-key": spec.key });
}

/** Runs "please deploy to <target>" and returns the interrupt the run ended with. */
export async function askToDeploy(server: MockServer, threadId: string, text = "please deploy to prod") {
  const reader = await postAndRead(server, userTurn(threadId, `${threadId}-ask`, text));
  const finished = reader.events.at(-1);
  expect(finished?.type).toBe("RUN_FINISHED");
  const outcome = finished?.outcome as { type: string; interrupts: Interrupt[] };
  expect(outcome.type).toBe("interrupt");
  const interrupt = outcome.interrupts[0];
  if (interrupt === undefined) throw new Error("no interrupt");
  return { reader, interrupt };
}

export async function ledger(server: MockServer): Promise<LedgerEntry[]> {
  const response = await fetch(`${server.url}/__ledger`);
  const body = (await response.json()) as { executions: LedgerEntry[] };
  return body.executions;
}

export async function addFaults(server: MockServer, faults: readonly Partial<Fault>[]): Promise<void> {
  const response = await fetch(`${server.url}/__chaos`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

export function reattach(
  server: MockServer,
  runId: string,
  cursor: { lastEventId?: string; after?: number } = {},
): Promise<Response> {
  const query = cursor.after === undefined ? "" : `?after=${cursor.after}`;
  const headers: Record<string, string> = {};
  if (cursor.lastEventId !== undefined) headers["last-event-id"] = cursor.lastEventId;
  return fetch(`${server.url}/agent/runs/${encodeURIComponent(runId)}/events${query}`, { headers });
}

export function terminal(reader: SseReader) {
  const last = reader.events.at(-1);
  if (last === undefined) throw new Error("no events");
  return last;
}

export function xResume(event: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return (event?.metadata as Record<string, unknown> | undefined)?.["x-resume"] as
    | Record<string, unknown>
    | undefined;
}

export const APPROVE = { approved: true } as const;

/** A resume as clients send it to servers without the contract: no key, `messages: []`. */
export function plainResumeBody(
  threadId: string,
  runId: string,
  interruptId: string,
  payload?: unknown,
  status: "resolved" | "cancelled" = "resolved",
): string {
  const entry: Record<string, unknown> = { interruptId, status };
  if (payload !== undefined) entry.payload = payload;
  return JSON.stringify({ threadId, runId, messages: [], resume: [entry] });
}
