import type { Pool } from "pg";
import type { Ledger } from "./scripted-agent";

/** The deploy tool's side effect as a row in Postgres, so every replica writes to one ledger. */
export async function createLedgerTable(pool: Pool, schema: string): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".ledger (
       id bigserial PRIMARY KEY, thread_id text NOT NULL, tool_call_id text NOT NULL, target text NOT NULL)`,
  );
}

export function postgresLedger(pool: Pool, schema: string): Ledger {
  return {
    async record(entry) {
      await pool.query(
        `INSERT INTO "${schema}".ledger (thread_id, tool_call_id, target) VALUES ($1, $2, $3)`,
        [entry.threadId, entry.toolCallId, entry.target],
      );
    },
    async entries(threadId) {
      const result = await pool.query<{ thread_id: string; tool_call_id: string; target: string }>(
        `SELECT thread_id, tool_call_id, target FROM "${schema}".ledger
         WHERE $1::text IS NULL OR thread_id = $1 ORDER BY id`,
        [threadId ?? null],
      );
      return result.rows.map((row) => ({
        threadId: row.thread_id,
        toolCallId: row.tool_call_id,
        target: row.target,
      }));
    },
  };
}
