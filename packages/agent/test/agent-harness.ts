import type { AgentSubscriber, BaseEvent, RunAgentParameters } from "@ag-ui/client";
import { verifyEvents } from "@ag-ui/client";
import type { OutboxClientOptions } from "@agui-outbox/core";
import { createIsolatedClient } from "@agui-outbox/core/testing";
import { type MockServer, type MockServerOptions, startMockServer } from "@agui-outbox/mock-server";
import { IDBFactory } from "fake-indexeddb";
import { from, lastValueFrom, toArray } from "rxjs";
import { afterEach } from "vitest";
import { DurableHttpAgent } from "../src/index";

/**
 * The agent against the real mock server over HTTP, with fake-indexeddb: one
 * factory per test, so a second agent on it is the same page reloaded.
 */
export interface AgentHarness {
  readonly server: MockServer;
  readonly indexedDB: IDBFactory;
  /** Every run an agent emitted, one array of events per run, in order, as its subscribers saw them. */
  runsOf(agent: DurableHttpAgent): BaseEvent[][];
  /** A page: a second call is a reload of the same browser, unless `browser` names another. */
  page(options?: PageOptions): DurableHttpAgent;
  ledger(threadId: string): Promise<unknown[]>;
  chaos(...faults: Record<string, unknown>[]): Promise<void>;
}

export interface PageOptions {
  readonly threadId?: string;
  /** Another browser's IndexedDB (a second device): its outbox shares nothing with this one. */
  readonly browser?: IDBFactory;
  readonly client?: Partial<OutboxClientOptions>;
}

const open: Array<{ server: MockServer; agents: DurableHttpAgent[] }> = [];

afterEach(async () => {
  for (const { server, agents } of open.splice(0)) {
    for (const agent of agents) agent.client.dispose();
    await server.close();
  }
});

export async function startAgentHarness(options: MockServerOptions = {}): Promise<AgentHarness> {
  const server = await startMockServer({ port: 0, toolDurationMs: 5, ...options });
  const agents: DurableHttpAgent[] = [];
  open.push({ server, agents });
  const indexedDB = new IDBFactory();
  const runs = new Map<DurableHttpAgent, BaseEvent[][]>();
  return {
    server,
    indexedDB,
    runsOf: (agent) => runs.get(agent) ?? [],
    page({ threadId = "thread-1", browser = indexedDB, client: clientOptions = {} } = {}) {
      const client = createIsolatedClient({
        url: `${server.url}/agent`,
        namespace: "user-1",
        dbName: "agent-test",
        retry: { backoff: { baseMs: 20, capMs: 200 } },
        ...clientOptions,
        indexedDB: browser,
      });
      const agent = new DurableHttpAgent({ client, threadId });
      // Recorded at the subscriber, after @ag-ui/client's own pipeline: what an app sees.
      const mine: BaseEvent[][] = [];
      runs.set(agent, mine);
      agent.subscribe({
        onEvent: ({ event }) => {
          if (event.type === "RUN_STARTED") mine.push([]);
          mine.at(-1)?.push(event);
        },
      });
      agents.push(agent);
      return agent;
    },
    async ledger(threadId) {
      const response = await fetch(`${server.url}/__ledger?threadId=${encodeURIComponent(threadId)}`);
      return ((await response.json()) as { executions: unknown[] }).executions;
    },
    async chaos(...faults) {
      const response = await fetch(`${server.url}/__chaos`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ faults }),
      });
      if (!response.ok) throw new Error(`chaos refused: ${response.status}`);
    },
  };
}

/** Adds a user message and runs it, as CopilotKit's chat does. */
export async function say(agent: DurableHttpAgent, text: string, subscriber?: AgentSubscriber) {
  agent.addMessage({ id: crypto.randomUUID(), role: "user", content: text });
  return agent.runAgent({}, subscriber);
}

export function resumeWith(agent: DurableHttpAgent, payload: unknown): RunAgentParameters {
  const [interrupt] = agent.pendingInterrupts;
  if (!interrupt) throw new Error("no pending interrupt");
  return { resume: [{ interruptId: interrupt.id, status: "resolved", payload }] };
}

/** `@ag-ui/client`'s verifier over a whole recorded sequence (every run, back to back). */
export async function verifySequence(events: readonly BaseEvent[]): Promise<void> {
  await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
}

export function customEvents(run: readonly BaseEvent[], name: string): unknown[] {
  return run
    .filter((event) => event.type === "CUSTOM" && (event as { name?: string }).name === name)
    .map((event) => (event as { value?: unknown }).value);
}

export function lastEvent(run: readonly BaseEvent[] | undefined): BaseEvent | undefined {
  return run?.at(-1);
}
