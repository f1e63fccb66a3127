import type { PoolClient } from "pg";

/** Milliseconds since the epoch on the database's clock: every lease and window is measured on it. */
export const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/**
 * The schema, one numbered step at a time. A step is never edited once
 * released: a change is a new step. `s` is the quoted schema name.
 */
export const MIGRATIONS: readonly { readonly version: number; readonly sql: (s: string) => string }[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.idempotency_keys (
        key text PRIMARY KEY,
        body_hash text NOT NULL,
        run_id text NOT NULL,
        thread_id text NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE TABLE ${s}.outcomes (
        key text PRIMARY KEY,
        run_id text NOT NULL,
        thread_id text NOT NULL,
        events jsonb NOT NULL,
        at bigint NOT NULL
      );
      CREATE TABLE ${s}.occurrences (
        thread_id text NOT NULL,
        interrupt_id text NOT NULL,
        tool_call_id text,
        tool_name text,
        args jsonb NOT NULL,
        interrupt jsonb NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        state text NOT NULL,
        claim_run_id text,
        claim_key text,
        lease_until bigint,
        decision jsonb,
        result jsonb,
        outcome_key text REFERENCES ${s}.outcomes (key) ON DELETE SET NULL,
        version integer NOT NULL,
        PRIMARY KEY (thread_id, interrupt_id)
      );
      CREATE INDEX occurrences_lease ON ${s}.occurrences (lease_until) WHERE claim_run_id IS NOT NULL;
      CREATE INDEX occurrences_claim ON ${s}.occurrences (claim_run_id) WHERE claim_run_id IS NOT NULL;
      CREATE TABLE ${s}.runs (
        run_id text PRIMARY KEY,
        thread_id text NOT NULL,
        last_seq integer NOT NULL,
        terminal jsonb,
        owner text,
        lease_until bigint NOT NULL,
        updated_at bigint NOT NULL,
        expired boolean NOT NULL DEFAULT false
      );
      CREATE INDEX runs_open_lease ON ${s}.runs (lease_until) WHERE terminal IS NULL;
      CREATE INDEX runs_closed_updated ON ${s}.runs (updated_at) WHERE terminal IS NOT NULL;
      CREATE TABLE ${s}.run_events (
        run_id text NOT NULL REFERENCES ${s}.runs (run_id) ON DELETE CASCADE,
        seq integer NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
  {
    version: 2,
    sql: (s) => `
      CREATE TABLE ${s}.background_runs (
        run_id text PRIMARY KEY,
        thread_id text NOT NULL,
        record jsonb NOT NULL,
        ended boolean NOT NULL,
        updated_at bigint NOT NULL,
        version integer NOT NULL
      );
      CREATE INDEX background_runs_ended ON ${s}.background_runs (updated_at) WHERE ended;
      CREATE TABLE ${s}.background_tokens (
        token text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${s}.background_runs (run_id) ON DELETE CASCADE
      );
    `,
  },
  {
    // What each run's log weighs, for the caps the sweep enforces (cap-queries.ts).
    version: 3,
    sql: (s) => `ALTER TABLE ${s}.runs ADD COLUMN log_bytes bigint NOT NULL DEFAULT 0;`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Brings the schema to {@link SCHEMA_VERSION} in one transaction, under an
 * advisory lock so replicas starting together migrate once. Returns the
 * versions applied now.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number[]> {
  const s = quoteIdent(schema);
  const applied: number[] = [];
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`agui-outbox:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const have = new Set(done.rows.map((row) => row.version));
    const newest = Math.max(0, ...have);
    if (newest > SCHEMA_VERSION) {
      throw new Error(
        `schema ${schema} is at version ${newest}, newer than this library knows (${SCHEMA_VERSION}); upgrade @agui-outbox/server`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (have.has(migration.version)) continue;
      await client.query(migration.sql(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [migration.version]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new TypeError(
      `schema name ${JSON.stringify(name)} must match [a-z_][a-z0-9_]* (at most 63 characters)`,
    );
  }
  return `"${name}"`;
}
