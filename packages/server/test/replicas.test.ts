import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONTRACT_CHECKS, runChecks } from "@agui-outbox/conformance";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readInteropTable } from "../../mock-server/test/interop/interop-table";
import { SseReader } from "../../mock-server/test/support/sse-reader";
import { PostgresStore } from "../src/store/postgres";
import { describeContractSuite } from "./contract-suite";
import {
  ContractClient,
  type JsonAnswer,
  pollBackground,
  readJson,
  resumeBody,
  userTurn,
} from "./support/contract-client";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";
import { type ArmedFault, armFaults, createFaultTable } from "./support/postgres-faults";
import { createLedgerTable, postgresLedger } from "./support/postgres-ledger";
import { ReplicaSet } from "./support/replica-set";
import { type RoundRobinProxy, startRoundRobinProxy } from "./support/round-robin-proxy";
import type { Ledger } from "./support/scripted-agent";
import { backgroundStart } from "./support/scripted-background";

const unavailable = postgresUnavailable();
// `npm test` already said why; run alone, the file says it.
if (unavailable !== undefined && !process.env.POSTGRES_UNAVAILABLE)
  console.log(`${unavailable}: the replica tests are skipped.`);

const SCHEMA = "replicas";
const LEASE_MS = 3_000;

/** Polls the truth (a row in Postgres) until it holds; a bounded wait, never an assertion on time. */
async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 400; tries += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(unavailable !== undefined)("three replicas on one Postgres", () => {
  let postgres: TestPostgres;
  let pool: Pool;
  let replicas: ReplicaSet;
  let proxy: RoundRobinProxy;
  let ledger: Ledger;
  const drops = new Map<string, number>();

  beforeAll(async () => {
    postgres = await startPostgres();
    pool = new Pool({ connectionString: postgres.url });
    await (await PostgresStore.open({ pool, schema: SCHEMA })).close();
    await createLedgerTable(pool, SCHEMA);
    await createFaultTable(pool, SCHEMA);
    ledger = postgresLedger(pool, SCHEMA);
    replicas = new ReplicaSet({
      databaseUrl: postgres.url,
      schema: SCHEMA,
      count: 3,
      env: { REPLICA_LEASE_MS: String(LEASE_MS), REPLICA_HOLD_MS: "20000" },
    });
    await replicas.start();
    // A dropped connection is the network's doing: the proxy cuts it, whichever replica serves the run.
    proxy = await startRoundRobinProxy(() => replicas.urls(), {
      dropAfterEvents: (body) => {
        const threadId = (JSON.parse(body.toString() || "{}") as { threadId?: string }).threadId ?? "";
        const drop = drops.get(threadId);
        drops.delete(threadId);
        return drop;
      },
    });
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await replicas?.stop();
    await pool?.end();
    postgres?.stop();
  }, 60_000);

  describeContractSuite("Postgres, three replicas behind a round-robin proxy", () => ({
    client: new ContractClient(proxy.url),
    ledger,
  }));

  test("the mock server's contract checks pass through the proxy as docs/interop.md says they pass on the mock", {
    timeout: 90_000,
  }, async () => {
    const documented = readInteropTable(
      readFileSync(fileURLToPath(new URL("../../../docs/interop.md", import.meta.url)), "utf8"),
    );
    const results = await runChecks({
      url: proxy.url,
      ledger: () => ledger.entries(),
      chaos: async (faults) => {
        const armed = faults as unknown as readonly (ArmedFault & { threadId: string })[];
        for (const fault of armed) {
          if (fault.point === "mid-stream") drops.set(fault.threadId, fault.afterEvents ?? 1);
        }
        await armFaults(
          pool,
          SCHEMA,
          armed.filter((fault) => fault.point !== "mid-stream"),
        );
      },
    });
    // The contract's rows; the "(release behaviour)" rows describe what Agent
    // Framework's releases do (their interrupt ids, their tool-unavailable fault),
    // which this scripted agent does not imitate.
    const contractRows = new Set(CONTRACT_CHECKS.map((check) => check.id));
    const observed = Object.fromEntries(
      [...results].filter(([id]) => contractRows.has(id)).map(([id, result]) => [id, result.pass]),
    );
    const expected = Object.fromEntries(
      [...documented]
        .filter(([id]) => contractRows.has(id))
        .map(([id, columns]) => [id, columns.get("contract")]),
    );
    expect(Object.keys(expected).length).toBe(CONTRACT_CHECKS.length);
    expect(observed).toEqual(expected);
  });

  const direct = (id: string) => new ContractClient(replicas.byId(id).url);
  const ownerOf = async (runId: string) => {
    const row = await pool.query<{ owner: string }>(`SELECT owner FROM ${SCHEMA}.runs WHERE run_id = $1`, [
      runId,
    ]);
    return row.rows[0]?.owner;
  };

  /** Retries a submission with the same key, as the client does, until it gets a verdict that is not "retry later". */
  async function retryUntilVerdict(client: ContractClient, body: unknown, key: string): Promise<SseReader> {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const reader = await client.run(body, key);
      const last = reader.events.at(-1);
      if (!(last?.type === "RUN_ERROR" && last.code === OutcomeCode.UNAVAILABLE) && last !== undefined) {
        if (!(last.type === "RUN_ERROR" && last.code === OutcomeCode.IN_PROGRESS)) return reader;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("no verdict after 60 retries");
  }

  test("concurrent resumes of one answer on two replicas: one claim, the other IN_PROGRESS, one execution", async () => {
    const threadId = `thread-${randomUUID()}`;
    // The winner holds its claim for 4 s, so the loser arrives while it is held, however loaded the machine.
    const asked = await direct("replica-1").askToDeploy(threadId, "deploy prod [slow-model:4000]");
    const [a, b] = [randomUUID(), randomUUID()];
    const readers = await Promise.all([
      direct("replica-2").run(resumeBody(threadId, `resume-${a}`, asked.interruptId, a), a),
      direct("replica-3").run(resumeBody(threadId, `resume-${b}`, asked.interruptId, b), b),
    ]);
    const endings = readers.map((reader) => reader.events.at(-1));
    expect(endings.filter((event) => event?.type === "RUN_FINISHED")).toHaveLength(1);
    expect(endings.filter((event) => event?.code === OutcomeCode.IN_PROGRESS)).toHaveLength(1);
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("a stream re-attached on another replica than the one running the run gets every event once", async () => {
    const threadId = `thread-${randomUUID()}`;
    const runId = `turn-${randomUUID()}`;
    const reader = await direct("replica-1").open(userTurn(threadId, runId, "hello [slow-text]"));
    await reader.waitFor((r) => r.frames.length >= 2);
    await reader.cancel();
    const seen = reader.frames.slice(0, 2);
    const response = await direct("replica-2").attach(runId, seen.at(-1)?.id);
    const tail = new SseReader(response);
    await tail.done;
    const all = [...seen, ...tail.frames].map((frame) => frame.id);
    expect(all).toEqual(Array.from({ length: all.length }, (_, index) => `${runId}:${index + 1}`));
    expect(tail.types.at(-1)).toBe("RUN_FINISHED");
    expect(await ownerOf(runId)).toBe("replica-1");
  });

  test("SIGKILL of the replica holding a claim mid-tool: the lease lapses, the retry is INDETERMINATE, never a second run", async () => {
    const threadId = `thread-${randomUUID()}`;
    const asked = await direct("replica-1").askToDeploy(threadId, "deploy prod [slow-tool]");
    const key = randomUUID();
    const body = resumeBody(threadId, `resume-${key}`, asked.interruptId, key);
    const first = await direct("replica-1").open(body, key);
    await until(
      async () => ((await ledger.entries(threadId)).length > 0 ? true : undefined),
      "the tool to start",
    );
    expect(await ownerOf(`resume-${key}`)).toBe("replica-1");
    await replicas.kill("replica-1");
    await first.done;
    const retried = await retryUntilVerdict(direct("replica-2"), body, key);
    expect(retried.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
    expect(await ledger.entries(threadId)).toHaveLength(1);
    await replicas.restart("replica-1");
  });

  test("SIGKILL after the tool's result was stored: the retry on another replica reuses it, one execution", async () => {
    const threadId = `thread-${randomUUID()}`;
    const asked = await direct("replica-3").askToDeploy(threadId, "deploy prod [slow-model]");
    const key = randomUUID();
    const body = resumeBody(threadId, `resume-${key}`, asked.interruptId, key);
    const first = await direct("replica-3").open(body, key);
    await first.waitFor((r) => r.types.includes("TOOL_CALL_RESULT"));
    const stored = await pool.query<{ result: { messageId: string } | null }>(
      `SELECT result FROM ${SCHEMA}.occurrences WHERE thread_id = $1`,
      [threadId],
    );
    expect(stored.rows[0]?.result).not.toBeNull();
    await replicas.kill("replica-3");
    await first.done;
    const retried = await retryUntilVerdict(direct("replica-2"), body, key);
    expect(retried.types.at(-1)).toBe("RUN_FINISHED");
    const result = retried.events.find((event) => event.type === "TOOL_CALL_RESULT");
    expect(result?.messageId).toBe(stored.rows[0]?.result?.messageId);
    expect(await ledger.entries(threadId)).toHaveLength(1);
    await replicas.restart("replica-3");
  });

  async function startBackground(replica: string, words: string) {
    const threadId = `thread-${randomUUID()}`;
    const runId = `bg-${randomUUID()}`;
    const started = await readJson(await direct(replica).post(backgroundStart(threadId, runId, words)));
    expect(started.status).toBe(202);
    return { threadId, runId, token: String(started.body.continuationToken) };
  }

  /** Re-polls with the held token, as a client does, while another poll's lease still holds the run. */
  async function repollUntilTaken(url: string, token: string): Promise<JsonAnswer> {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const answer = await pollBackground(url, token);
      if (answer.body.error?.code !== OutcomeCode.BACKGROUND_POLL_IN_PROGRESS && answer.status !== 503)
        return answer;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error("the run stayed held by another poll");
  }

  test("a background re-poll on another replica resubmits the stored result: the tool ran once", async () => {
    const { threadId, runId, token } = await startBackground("replica-1", "deploy prod");
    await armFaults(pool, SCHEMA, [{ threadId, point: "background-submit", action: "status" }]);
    const failed = await pollBackground(replicas.byId("replica-2").url, token);
    expect(failed.status).toBe(503);
    expect(await ledger.entries(threadId)).toHaveLength(1);
    const stored = await pool.query<{ message_id: string }>(
      `SELECT record -> 'calls' -> 0 -> 'result' ->> 'messageId' AS message_id
       FROM ${SCHEMA}.background_runs WHERE run_id = $1`,
      [runId],
    );
    expect(stored.rows[0]?.message_id).toBeTruthy();

    const again = await pollBackground(replicas.byId("replica-3").url, token);
    expect(again.status).toBe(200);
    expect(again.body.continuationToken).not.toBe(token);
    const result = again.body.events?.find((event) => event.type === "TOOL_CALL_RESULT");
    expect(result?.messageId).toBe(stored.rows[0]?.message_id);
    const last = await pollBackground(proxy.url, String(again.body.continuationToken));
    expect(last.body).toMatchObject({ status: "completed", continuationToken: null });
    expect(await ledger.entries(threadId)).toHaveLength(1);
  });

  test("SIGKILL of the replica polling mid-tool: the re-poll on another replica is INDETERMINATE, never a second run", async () => {
    const { threadId, token } = await startBackground("replica-1", "deploy prod [slow-tool]");
    const polling = pollBackground(replicas.byId("replica-2").url, token).catch(() => undefined);
    await until(
      async () => ((await ledger.entries(threadId)).length > 0 ? true : undefined),
      "the tool to start",
    );
    await replicas.kill("replica-2");
    await polling;
    const retried = await repollUntilTaken(replicas.byId("replica-1").url, token);
    expect(retried.body).toMatchObject({
      status: "failed",
      error: { code: OutcomeCode.BACKGROUND_TOOL_RESULT_INDETERMINATE },
    });
    expect(await ledger.entries(threadId)).toHaveLength(1);
    await replicas.restart("replica-2");
  });
});
