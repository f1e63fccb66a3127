import { type MockServer, type MockServerOptions, startMockServer } from "@agui-outbox/mock-server";
import { IDBFactory } from "fake-indexeddb";
import { afterEach } from "vitest";
import type { OutboxClient, OutboxClientOptions } from "../../src/client/create-outbox-client";
import type { OutboxEntry } from "../../src/outbox/entry";
import { isFinalState } from "../../src/outbox/entry";
import { createIsolatedClient } from "../../testing/isolated-client";

/**
 * The client against the real mock server over real HTTP, with IndexedDB from
 * fake-indexeddb (one factory per test, shared by every client of that test so
 * a "reload" sees the same database).
 */
export interface Harness {
  server: MockServer;
  indexedDB: IDBFactory;
  clients: OutboxClient[];
}

const open: Harness[] = [];

afterEach(async () => {
  for (const harness of open.splice(0)) {
    for (const client of harness.clients) client.dispose();
    await harness.server.close();
  }
});

export async function startHarness(serverOptions: MockServerOptions = {}): Promise<Harness> {
  const server = await startMockServer({ port: 0, toolDurationMs: 5, ...serverOptions });
  const harness: Harness = { server, indexedDB: new IDBFactory(), clients: [] };
  open.push(harness);
  return harness;
}

/** Every request a client made, for "no request earlier than allowed" checks. */
export interface RequestRecord {
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly idempotencyKey: string | null;
}

export function recordingFetch(
  log: RequestRecord[],
): (input: string, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    log.push({
      at: Date.now(),
      method: init?.method ?? "GET",
      url: input,
      idempotencyKey: headers.get("idempotency-key"),
    });
    return fetch(input, init);
  };
}

/** Resolves once the entry for this interrupt reaches one of `states`. */
export function entryReaches(
  client: OutboxClient,
  key: string,
  states: readonly string[],
  timeoutMs = 10_000,
) {
  return new Promise<OutboxEntry>((resolve, reject) => {
    const check = () => {
      const entry = client.outbox.getState().entries.find((candidate) => candidate.key === key);
      if (entry && states.includes(entry.state)) {
        unsubscribe();
        clearTimeout(timer);
        resolve(entry);
      }
    };
    const unsubscribe = client.outbox.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`entry never reached ${states.join("/")}`));
    }, timeoutMs);
    check();
  });
}

/**
 * A fetch whose resume requests reach the server and run to the end there, but
 * whose answers never reach the page: the page died with the request in flight.
 */
export function answersNeverArrive(): {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  reached: Promise<void>;
} {
  let markReached!: () => void;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  return {
    reached,
    fetch: (input, init) => {
      if (!new Headers(init?.headers).has("idempotency-key")) return fetch(input, init);
      return fetch(input, init).then(async (response) => {
        await response.text();
        markReached();
        return new Promise<Response>(() => {});
      });
    },
  };
}

/** A client as a page would make it; a second call with the same harness is a reload. */
export function makeClient(harness: Harness, options: Partial<OutboxClientOptions> = {}): OutboxClient {
  // Each client is its own browser unless a test shares tabs on purpose (deps).
  const client = createIsolatedClient({
    url: `${harness.server.url}/agent`,
    namespace: "user-1",
    dbName: "outbox-test",
    retry: { backoff: { baseMs: 20, capMs: 200 } },
    ...options,
    indexedDB: harness.indexedDB,
  });
  harness.clients.push(client);
  return client;
}

export async function ledger(harness: Harness): Promise<Array<{ toolCallId: string; args: unknown }>> {
  const response = await fetch(`${harness.server.url}/__ledger`);
  const body = (await response.json()) as { executions: Array<{ toolCallId: string; args: unknown }> };
  return body.executions;
}

export async function chaos(harness: Harness, faults: readonly Record<string, unknown>[]): Promise<void> {
  const response = await fetch(`${harness.server.url}/__chaos`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ faults }),
  });
  if (!response.ok) throw new Error(`chaos refused: ${response.status} ${await response.text()}`);
}

/** Resolves with the entry once it reaches a final state. */
export function settled(client: OutboxClient, key: string, timeoutMs = 10_000): Promise<OutboxEntry> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const entry = client.outbox.getState().entries.find((candidate) => candidate.key === key);
      if (entry && isFinalState(entry.state)) {
        unsubscribe();
        clearTimeout(timer);
        resolve(entry);
      }
    };
    const unsubscribe = client.outbox.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      const entry = client.outbox.getState().entries.find((candidate) => candidate.key === key);
      const detail = entry
        ? `${entry.state} after ${entry.attempts} attempt(s), next attempt in ${
            entry.nextAttemptAt === null ? "-" : entry.nextAttemptAt - Date.now()
          } ms, last error ${entry.lastError?.kind ?? "none"}: ${entry.lastError?.message ?? ""}`
        : "no entry";
      reject(new Error(`entry did not settle: ${detail}`));
    }, timeoutMs);
    check();
  });
}

/** Starts a thread that asks for a deployment and returns its pending interrupt. */
export async function askForDeployment(
  client: OutboxClient,
  threadId: string,
  text = "please deploy to prod",
) {
  const thread = client.thread(threadId);
  await thread.send(text);
  const [interrupt] = thread.store.getState().pendingInterrupts;
  if (!interrupt) throw new Error("the agent did not ask for approval");
  return interrupt;
}

/** Resolves (on real time) once `predicate` holds. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The client's published copy of one entry. */
export const entryOf = (client: OutboxClient, key: string) =>
  client.outbox.getState().entries.find((entry) => entry.key === key) as OutboxEntry;

/** The requests that carried an answer (an `Idempotency-Key`). */
export const resumes = (log: readonly RequestRecord[]) =>
  log.filter((request) => request.idempotencyKey !== null);
