import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresUnavailable, startPostgres, type TestPostgres } from "../../server/test/support/postgres";
import { openStore, openThreadLock, type StoreSpec } from "../src/index";
import { type FakeUpstream, finished, started, startFakeUpstream } from "./support/fake-upstream";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// Two gateways opened as the command line opens them for `--store postgres://…`: what
// serialises one thread's runs must hold across them, not only inside one process.
const unavailable = postgresUnavailable();
if (unavailable !== undefined && !process.env.POSTGRES_UNAVAILABLE)
  console.log(`${unavailable}: the gateway's replica lock test is skipped.`);

/** Waits until a truth holds (Postgres' lock table has no event to wait for). */
const until = (holds: () => Promise<boolean>, what: string) =>
  expect.poll(holds, { message: what, timeout: 10_000 }).toBe(true);

describe.skipIf(unavailable !== undefined)("two gateway replicas on one Postgres", () => {
  let postgres: TestPostgres;
  let pool: Pool;
  let upstream: FakeUpstream;
  const gateways: RunningGateway[] = [];
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });

  beforeAll(async () => {
    postgres = await startPostgres();
    pool = new Pool({ connectionString: postgres.url });
    upstream = await startFakeUpstream((request) => ({
      // The first run holds the thread until the test lets it go.
      ...(upstream.requests.length === 1 ? { hold: firstHeld } : {}),
      events: [started(request), finished(request)],
    }));
    const spec: StoreSpec = { kind: "postgres", connectionString: postgres.url };
    for (let index = 0; index < 2; index += 1) {
      gateways.push(
        await startGateway(upstream.url, {
          store: await openStore(spec),
          threadLock: await openThreadLock(spec),
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    releaseFirst?.();
    for (const gateway of gateways) await gateway.close();
    await upstream?.close();
    await pool?.end();
    postgres?.stop();
  }, 30_000);

  const turn = (gateway: RunningGateway, threadId: string) =>
    fetch(`${gateway.url}/agent`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        threadId,
        runId: `run-${randomUUID()}`,
        messages: [{ id: randomUUID(), role: "user", content: "hello" }],
      }),
    }).then((response) => response.text());

  test("two turns of one thread on two replicas reach the upstream one after the other", async () => {
    const threadId = `thread-${randomUUID()}`;
    const first = turn(gateways[0] as RunningGateway, threadId);
    await until(async () => upstream.requests.length === 1, "the first turn to reach the upstream");
    const second = turn(gateways[1] as RunningGateway, threadId);
    // Either the second turn reached the upstream beside the first, or it waits on a lock in Postgres.
    await until(async () => {
      if (upstream.requests.length > 1) return true;
      const waiting = await pool.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      return (waiting.rowCount ?? 0) > 0;
    }, "the second turn to reach the upstream or wait for the thread");
    releaseFirst();
    const bodies = await Promise.all([first, second]);
    expect(upstream.concurrency.max).toBe(1);
    expect(upstream.requests).toHaveLength(2);
    for (const body of bodies) expect(body).toContain('"RUN_FINISHED"');
  });
});
