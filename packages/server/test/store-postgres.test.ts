import { randomUUID } from "node:crypto";
import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RunAttempt } from "../src/engine/run-attempt";
import type { ServerClock } from "../src/engine/server-clock";
import { MIGRATIONS, migrate, PostgresStore, SCHEMA_VERSION } from "../src/store/postgres";
import { describeStoreContract } from "./store-contract";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./support/postgres";

const unavailable = postgresUnavailable();
// `npm test` already said why; run alone, the file says it.
if (unavailable !== undefined && !process.env.POSTGRES_UNAVAILABLE)
  console.log(`${unavailable}: the Postgres store tests are skipped.`);

describe.skipIf(unavailable !== undefined)("Postgres", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  // Each test gets a schema of its own, so tests share one server and never each other's rows.
  const schema = () => `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  describeStoreContract("postgres", () =>
    PostgresStore.open({ connectionString: postgres.url, schema: schema() }),
  );

  test("migrations are versioned and applied once, even by replicas opening together", async () => {
    const name = schema();
    const stores = await Promise.all(
      [1, 2, 3].map(() => PostgresStore.open({ connectionString: postgres.url, schema: name })),
    );
    await Promise.all(stores.map((store) => store.close()));
    const pool = new Pool({ connectionString: postgres.url });
    try {
      const rows = await pool.query(`SELECT version FROM "${name}".schema_migrations ORDER BY version`);
      expect(rows.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
      const client = await pool.connect();
      try {
        expect(await migrate(client, name)).toEqual([]);
        await client.query(`INSERT INTO "${name}".schema_migrations (version) VALUES ($1)`, [
          SCHEMA_VERSION + 1,
        ]);
        await expect(migrate(client, name)).rejects.toThrow(/newer than this library knows/);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  test("an append on one instance wakes a watcher on another (LISTEN/NOTIFY)", async () => {
    const name = schema();
    const writer = await PostgresStore.open({ connectionString: postgres.url, schema: name });
    const reader = await PostgresStore.open({ connectionString: postgres.url, schema: name });
    try {
      await writer.beginRun("r1", "t", "A", 60_000);
      const woken = new Promise<void>((resolve) => {
        void reader.watch("r1", () => resolve());
      });
      // The watch subscribes before it resolves; give it its LISTEN, then append.
      await reader.watch("r1", () => {});
      await writer.append("r1", "A", { type: "RUN_STARTED", threadId: "t", runId: "r1" } as never);
      await woken;
      expect((await reader.frames("r1", 0)).map((f) => f.seq)).toEqual([1]);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  test("events are stored as they arrived, and read back with their cursors stamped", async () => {
    const name = schema();
    const store = await PostgresStore.open({ connectionString: postgres.url, schema: name });
    const pool = new Pool({ connectionString: postgres.url });
    try {
      await store.beginRun("r1", "t", "A", 60_000);
      const started = { type: "RUN_STARTED", threadId: "t", runId: "r1", metadata: { k: 1 } } as never;
      const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r1" } as never;
      await store.appendMany("r1", "A", [started, finished]);
      // The database stores each event whole, as sent: no per-event rewrite in the append's statement.
      const raw = await pool.query(`SELECT event FROM "${name}".run_events ORDER BY seq`);
      expect(raw.rows.map((row) => row.event)).toEqual([started, finished]);
      const cursor = (seq: number) => ({ "x-stream": { runId: "r1", seq } });
      expect(await store.frames("r1", 0)).toEqual([
        { seq: 1, event: { ...(started as object), metadata: { k: 1, ...cursor(1) } } },
        { seq: 2, event: { ...(finished as object), metadata: cursor(2) } },
      ]);
      expect((await store.run("r1"))?.terminal).toEqual({ ...(finished as object), metadata: cursor(2) });
    } finally {
      await store.close();
      await pool.end();
    }
  });

  test("a schema name that is not a plain identifier is refused", async () => {
    await expect(PostgresStore.open({ connectionString: postgres.url, schema: 'x"; DROP' })).rejects.toThrow(
      /must match/,
    );
  });

  test("a flowing run commits once per commit window on Postgres, and no reader sees a waiting event", async () => {
    const store = await PostgresStore.open({ connectionString: postgres.url, schema: schema() });
    expect(store.commitWindow?.waitMs).toBeGreaterThan(0);
    const commits: number[] = [];
    const appendMany = store.appendMany.bind(store);
    store.appendMany = async (...args) => {
      const frames = await appendMany(...args);
      commits.push(args[2].length);
      return frames;
    };
    // The window's timer fires when the test says; `waiting` resolves when one is set.
    let fire = () => {};
    let waiting = () => {};
    const clock: ServerClock = {
      every(ms, tick) {
        if (ms !== store.commitWindow?.waitMs) return () => {};
        fire = tick;
        waiting();
        return () => {};
      },
    };
    const windowSet = () => new Promise<void>((resolve) => (waiting = resolve));
    try {
      await store.beginRun("r", "t", "A", 60_000);
      const attempt = new RunAttempt({
        ...{ store, owner: "A", runId: "r", threadId: "t", startSeq: 0, leaseMs: 60_000 },
        ...{ clock, identity: undefined },
      });
      const delta = (n: number) =>
        ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: `${n}` }) as AgUiEvent;
      const set = windowSet();
      await attempt.push(delta(0));
      // Arrives during the first commit: the stream is flowing, so it waits for company.
      await attempt.push(delta(1));
      await set;
      expect(commits).toEqual([1]);
      for (let n = 2; n < 50; n += 1) await attempt.push(delta(n));
      expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual([1]);
      fire();
      await attempt.emit({ type: "RUN_FINISHED", threadId: "t", runId: "r" } as AgUiEvent);
      // 51 events in 2 commits: the first alone, then the 49 that waited with the end that closed the window.
      expect(commits).toEqual([1, 50]);
      expect((await store.frames("r", 0)).map((frame) => frame.seq)).toEqual(
        Array.from({ length: 51 }, (_, n) => n + 1),
      );
    } finally {
      await store.close();
    }
  });
});
