import type { PoolClient } from "pg";
import type { StoreLimits } from "../run-bounds";

/** The caps the memory store has, for Postgres (its rows are on disk: larger). */
export const POSTGRES_LIMITS: Required<StoreLimits> = {
  maxBytes: 4 * 1024 * 1024 * 1024,
  maxRuns: 1_000_000,
  maxBytesPerIdentity: 256 * 1024 * 1024,
  maxRunsPerIdentity: 100_000,
};

// The identity a run belongs to: the threadId's scope (see scoped-store.ts), '' for the anonymous one.
const WHO = "CASE WHEN strpos(thread_id, chr(31)) > 0 THEN split_part(thread_id, chr(31), 1) ELSE '' END";

/**
 * Applies the caps as the memory store does, once per sweep: the newest runs
 * (running ones included) are counted first, and a finished run past a bytes
 * cap loses its log (410 on re-attach), past a count cap it goes. A running
 * run, and so a claim not yet settled, is never touched.
 */
export async function enforceCaps(
  client: PoolClient,
  s: string,
  limits: Required<StoreLimits>,
): Promise<void> {
  const ranked = `SELECT run_id, terminal IS NOT NULL AS ended, expired,
      sum(log_bytes) OVER (PARTITION BY ${WHO} ORDER BY updated_at DESC, run_id) AS own_bytes,
      row_number() OVER (PARTITION BY ${WHO} ORDER BY updated_at DESC, run_id) AS own_runs,
      sum(log_bytes) OVER (ORDER BY updated_at DESC, run_id) AS all_bytes,
      row_number() OVER (ORDER BY updated_at DESC, run_id) AS all_runs
    FROM ${s}.runs`;
  const { maxBytes, maxRuns, maxBytesPerIdentity, maxRunsPerIdentity } = limits;
  await client.query(
    `DELETE FROM ${s}.runs r USING (${ranked}) c
     WHERE r.run_id = c.run_id AND c.ended AND (c.own_runs > $1 OR c.all_runs > $2)`,
    [maxRunsPerIdentity, maxRuns],
  );
  const expired = await client.query<{ run_id: string }>(
    `UPDATE ${s}.runs r SET expired = true, log_bytes = 0 FROM (${ranked}) c
     WHERE r.run_id = c.run_id AND c.ended AND NOT c.expired AND (c.own_bytes > $1 OR c.all_bytes > $2)
     RETURNING r.run_id`,
    [maxBytesPerIdentity, maxBytes],
  );
  if (expired.rows.length > 0) {
    await client.query(`DELETE FROM ${s}.run_events WHERE run_id = ANY($1::text[])`, [
      expired.rows.map((row) => row.run_id),
    ]);
  }
}
