import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
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
        void reader.watch("r1", resolve);
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

  test("a schema name that is not a plain identifier is refused", async () => {
    await expect(PostgresStore.open({ connectionString: postgres.url, schema: 'x"; DROP' })).rejects.toThrow(
      /must match/,
    );
  });
});
