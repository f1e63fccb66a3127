import type { Pool, PoolClient } from "pg";
import { type BackgroundRunRecord, isBackgroundEnded, type NewBackgroundRun } from "../background-records";
import { NOW_MS } from "./migrations";

/**
 * Background runs on Postgres: one row per run holding the record as JSON,
 * written only at the version it was read at, and one row per token handed
 * out (inserted in the same transaction), so any replica finds the run by the
 * token a client holds. `s` is the quoted schema name.
 */
export class BackgroundQueries {
  readonly #pool: Pool;
  readonly #s: string;

  constructor(pool: Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  async create(record: NewBackgroundRun): Promise<boolean> {
    const s = this.#s;
    return this.#transaction(async (client) => {
      const inserted = await client.query(
        `INSERT INTO ${s}.background_runs (run_id, thread_id, record, ended, updated_at, version)
         VALUES ($1, $2, jsonb_set($3::jsonb, '{updatedAt}', to_jsonb(${NOW_MS})) || '{"version": 1}'::jsonb,
                 $4, ${NOW_MS}, 1)
         ON CONFLICT (run_id) DO NOTHING`,
        [
          record.runId,
          record.threadId,
          JSON.stringify({ ...record, updatedAt: 0 }),
          isBackgroundEnded(record),
        ],
      );
      if (inserted.rowCount !== 1) return false;
      await this.#insertTokens(client, record);
      return true;
    });
  }

  async byRunId(runId: string): Promise<BackgroundRunRecord | undefined> {
    const found = await this.#pool.query<{ record: BackgroundRunRecord }>(
      `SELECT record FROM ${this.#s}.background_runs WHERE run_id = $1`,
      [runId],
    );
    return found.rows[0]?.record;
  }

  async byToken(token: string): Promise<BackgroundRunRecord | undefined> {
    const s = this.#s;
    const found = await this.#pool.query<{ record: BackgroundRunRecord }>(
      `SELECT b.record FROM ${s}.background_tokens t JOIN ${s}.background_runs b ON b.run_id = t.run_id
       WHERE t.token = $1`,
      [token],
    );
    return found.rows[0]?.record;
  }

  async update(record: BackgroundRunRecord): Promise<boolean> {
    const s = this.#s;
    return this.#transaction(async (client) => {
      const next = { ...record, version: record.version + 1 };
      const updated = await client.query(
        `UPDATE ${s}.background_runs
         SET record = jsonb_set($2::jsonb, '{updatedAt}', to_jsonb(${NOW_MS})), ended = $3,
             updated_at = ${NOW_MS}, version = version + 1
         WHERE run_id = $1 AND version = $4`,
        [record.runId, JSON.stringify(next), isBackgroundEnded(record), record.version],
      );
      if (updated.rowCount !== 1) return false;
      await this.#insertTokens(client, record);
      return true;
    });
  }

  async renewPoll(runId: string, pollId: string, leaseMs: number): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#s}.background_runs
       SET record = jsonb_set(record, '{poll,leaseUntil}', to_jsonb(${NOW_MS} + $3))
       WHERE run_id = $1 AND record -> 'poll' ->> 'pollId' = $2`,
      [runId, pollId, leaseMs],
    );
  }

  /** Ended runs (and their tokens, by cascade) past the idempotency window. */
  async prune(idempotencyWindowMs: number): Promise<void> {
    await this.#pool.query(
      `DELETE FROM ${this.#s}.background_runs WHERE ended AND updated_at + $1 <= ${NOW_MS}`,
      [idempotencyWindowMs],
    );
  }

  /** Runs `work` in one transaction; `false` from it (a write refused) rolls back, as does a throw. */
  async #transaction(work: (client: PoolClient) => Promise<boolean>): Promise<boolean> {
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      const done = await work(client);
      await client.query(done ? "COMMIT" : "ROLLBACK");
      return done;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  }

  async #insertTokens(
    client: PoolClient,
    record: Pick<BackgroundRunRecord, "runId" | "tokens">,
  ): Promise<void> {
    const tokens = Object.keys(record.tokens);
    if (tokens.length === 0) return;
    await client.query(
      `INSERT INTO ${this.#s}.background_tokens (token, run_id)
       SELECT unnest($1::text[]), $2 ON CONFLICT (token) DO NOTHING`,
      [tokens, record.runId],
    );
  }
}
