import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONTRACT_CHECKS, runChecks } from "@agui-outbox/conformance";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ContractClient, resumeBody } from "../../server/test/support/contract-client";
import { postgresUnavailable, startPostgres, type TestPostgres } from "../../server/test/support/postgres";
import { type RoundRobinProxy, startRoundRobinProxy } from "../../server/test/support/round-robin-proxy";
import { type PostgresMock, startPostgresMock } from "../src/library/postgres-mock";
import { readInteropTable } from "./interop/interop-table";

// The mock's contract checks, unchanged, against three mock instances on the
// library's Postgres store behind a round-robin proxy: each request (a stream,
// its resume, its re-attach, a fault armed through /__chaos) may land on any of them.
const unavailable = postgresUnavailable();
// `npm test` already said why; run alone, the file says it.
if (unavailable !== undefined && !process.env.POSTGRES_UNAVAILABLE)
  console.log(`${unavailable}: the mock's Postgres replica checks are skipped.`);

describe.skipIf(unavailable !== undefined)("the mock on Postgres, three replicas behind a proxy", () => {
  let postgres: TestPostgres;
  let mocks: PostgresMock[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    postgres = await startPostgres();
    mocks = [];
    for (let index = 0; index < 3; index += 1) {
      mocks.push(
        await startPostgresMock({
          databaseUrl: postgres.url,
          instanceId: `mock-${index}`,
          claimLeaseMs: 3_000,
          toolDurationMs: 5,
          keepaliveMs: 5_000,
        }),
      );
    }
    proxy = await startRoundRobinProxy(() => mocks.map((mock) => mock.url));
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(mocks.map((mock) => mock.close()));
    postgres?.stop();
  });

  test("the mock's contract checks pass through the proxy as docs/interop.md says they pass on the mock", {
    timeout: 90_000,
  }, async () => {
    const documented = readInteropTable(
      readFileSync(fileURLToPath(new URL("../../../docs/interop.md", import.meta.url)), "utf8"),
    );
    const results = await runChecks({
      url: proxy.url,
      ledger: async () =>
        ((await (await fetch(`${proxy.url}/__ledger`)).json()) as { executions: { threadId: string }[] })
          .executions,
      chaos: async (faults) => {
        const response = await fetch(`${proxy.url}/__chaos`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ faults }),
        });
        if (!response.ok) throw new Error(`chaos refused: HTTP ${response.status}`);
      },
    });
    const contractRows = new Set(CONTRACT_CHECKS.map((check) => check.id));
    const observed = Object.fromEntries(
      [...results].filter(([id]) => contractRows.has(id)).map(([id, result]) => [id, result]),
    );
    const expected = Object.fromEntries(
      [...documented]
        .filter(([id]) => contractRows.has(id))
        .map(([id, columns]) => [id, columns.get("contract")]),
    );
    expect(Object.keys(expected).length).toBe(CONTRACT_CHECKS.length);
    expect(Object.fromEntries(Object.entries(observed).map(([id, result]) => [id, result.pass]))).toEqual(
      expected,
    );
    // Every replica ran runs: the checks' streams, resumes and re-attaches were spread over all three.
    const pool = new Pool({ connectionString: postgres.url, max: 1 });
    try {
      const owners = await pool.query<{ owner: string }>(
        "SELECT DISTINCT owner FROM agui_outbox.runs ORDER BY owner",
      );
      expect(owners.rows.map((row) => row.owner)).toEqual(["mock-0", "mock-1", "mock-2"]);
    } finally {
      await pool.end();
    }
  });

  test("a background run on three replicas: approved, the submission fails on one, the re-poll on another resubmits the stored result; the tool ran once", {
    timeout: 60_000,
  }, async () => {
    const threadId = "t-pg-background";
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${proxy.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const poll = async (token: string) => {
      const response = await post("/agent/background/poll", { continuationToken: token });
      return { response, body: (await response.json()) as Record<string, unknown> };
    };
    const started = await post(
      "/agent",
      {
        threadId,
        runId: `${threadId}-run`,
        messages: [{ id: `${threadId}-m1`, role: "user", content: "please deploy to prod" }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: { background: true },
      },
      { "idempotency-key": `${threadId}-key` },
    );
    expect(started.status).toBe(202);
    const first = String(((await started.json()) as { continuationToken: string }).continuationToken);
    // The deploy asks first: the approved tool runs in the resume, on whichever replica takes it.
    const asked = await poll(first);
    expect(asked.body.status).toBe("interrupted");
    const events = asked.body.events as { outcome?: { interrupts?: { id: string }[] } }[];
    const interruptId = events.at(-1)?.outcome?.interrupts?.[0]?.id ?? "";
    const key = `${threadId}-answer`;
    const resume = { interruptId, status: "resolved", payload: { approved: true } };
    const body = { threadId, runId: `${threadId}-resume`, messages: [], resume: [resume] };
    await (await post("/agent", body, { "idempotency-key": key })).text();
    const token = String(asked.body.continuationToken);
    const armed = await post("/__chaos", {
      faults: [{ threadId, point: "background-submit", action: "status", status: 429, retryAfterMs: 2_000 }],
    });
    expect(armed.status).toBe(200);

    // Round robin: the failed poll and its re-poll, one after the other, land on different replicas.
    const deferred = await poll(token);
    expect(deferred.response.status).toBe(429);
    expect(deferred.response.headers.get("retry-after")).toBe("2");
    const repolled = await poll(token);
    expect(repolled.response.status).toBe(200);
    expect(repolled.body.status).toBe("in_progress");
    const done = await poll(String(repolled.body.continuationToken));
    expect(done.body).toMatchObject({ status: "completed", continuationToken: null, error: null });

    const ledger = (await (await fetch(`${proxy.url}/__ledger?threadId=${threadId}`)).json()) as {
      executions: unknown[];
    };
    expect(ledger.executions).toHaveLength(1);
  });

  test("the inspection routes read the shared tables from any replica; /__reset on one empties them for all", {
    timeout: 60_000,
  }, async () => {
    const threadId = "t-pg-inspect";
    const get = async (path: string) =>
      (await fetch(`${proxy.url}${path}`)).json() as Promise<Record<string, unknown[]>>;
    const client = new ContractClient(proxy.url);
    const turn = await client.askToDeploy(threadId, "please deploy to prod");
    const key = `${threadId}-key`;
    const applied = await client.run(resumeBody(threadId, `${threadId}-resume`, turn.interruptId, key), key);
    expect(applied.events.at(-1)?.type).toBe("RUN_FINISHED");

    // Three reads in a row, one per replica: each sees what another one wrote.
    for (let replica = 0; replica < 3; replica += 1) {
      const { occurrences } = await get(`/__occurrences?threadId=${threadId}`);
      expect(occurrences).toMatchObject([
        {
          interruptId: turn.interruptId,
          state: "RESOLVED",
          claimedBy: null,
          resultStored: true,
          resolvedBy: `${threadId}-resume`,
        },
      ]);
    }
    expect((await get(`/__resumes?threadId=${threadId}`)).resumes).toMatchObject([{ key, threadId }]);
    await fetch(`${proxy.url}/__chaos`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: [{ threadId, point: "mid-tool", action: "fail" }] }),
    });
    expect((await get("/__chaos")).faults).toMatchObject([{ threadId, point: "mid-tool", action: "fail" }]);

    expect((await fetch(`${proxy.url}/__reset`, { method: "POST" })).status).toBe(200);
    for (let replica = 0; replica < 3; replica += 1) {
      expect((await get("/__occurrences")).occurrences).toEqual([]);
      expect((await get("/__ledger")).executions).toEqual([]);
      expect((await get("/__resumes")).resumes).toEqual([]);
      expect((await get("/__chaos")).faults).toEqual([]);
    }
    expect((await fetch(`${proxy.url}/agent/runs/${threadId}-resume`)).status).toBe(404);
  });
});

describe.skipIf(unavailable !== undefined)("the mock's /__reset on Postgres beside a replica's locks", () => {
  let postgres: TestPostgres;
  let mock: PostgresMock;

  beforeAll(async () => {
    postgres = await startPostgres();
    mock = await startPostgresMock({ databaseUrl: postgres.url, instanceId: "mock-reset" });
  }, 120_000);

  afterAll(async () => {
    await mock?.close();
    postgres?.stop();
  });

  test("a reset that deadlocks with a transaction holding rows of the tables it empties tries again (found by the soak on replicas)", {
    timeout: 60_000,
  }, async () => {
    const pool = new Pool({ connectionString: postgres.url, max: 2 });
    const holder = await pool.connect();
    try {
      // A sweeper-like transaction: rows of `runs` locked, then a read of `run_events`. Its
      // deadlock timeout is long, so Postgres breaks the cycle on the reset's side, every time.
      await holder.query("BEGIN");
      await holder.query("SET LOCAL deadlock_timeout = '20s'");
      await holder.query("SELECT * FROM agui_outbox.runs FOR UPDATE");
      const reset = fetch(`${mock.url}/__reset`, { method: "POST" });
      // The reset holds `run_events` and waits for `runs`.
      for (;;) {
        const waiting = await pool.query(
          "SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE NOT l.granted AND c.relname = 'runs'",
        );
        if (waiting.rowCount !== null && waiting.rowCount > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const read = holder.query("SELECT count(*) FROM agui_outbox.run_events");
      await read;
      await holder.query("COMMIT");
      const answer = await reset;
      expect(answer.status).toBe(200);
    } finally {
      holder.release();
      await pool.end();
    }
  });

  test("POST /__mode takes the contract's mode only: the emulations run in one process's memory", async () => {
    const post = (mode: string) =>
      fetch(`${mock.url}/__mode`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ mode }),
      });
    expect((await post("fixed")).status).toBe(200);
    const refused = await post("af-legacy");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  });
});
