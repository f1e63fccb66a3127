import type { Pool } from "pg";

/** A fault the mock server's contract checks arm (`/__chaos`), kept where every replica sees it. */
export interface ArmedFault {
  readonly point: string;
  readonly action: string;
  readonly delayMs?: number;
  readonly afterEvents?: number;
}

export interface FaultSource {
  /** Takes the oldest fault armed for this thread at this point, once, whichever replica asks. */
  take(threadId: string, point: string): Promise<ArmedFault | undefined>;
}

export async function createFaultTable(pool: Pool, schema: string): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".faults (
       id bigserial PRIMARY KEY, thread_id text NOT NULL, point text NOT NULL, fault jsonb NOT NULL)`,
  );
}

export async function armFaults(
  pool: Pool,
  schema: string,
  faults: readonly (ArmedFault & { readonly threadId: string })[],
): Promise<void> {
  for (const fault of faults) {
    await pool.query(`INSERT INTO "${schema}".faults (thread_id, point, fault) VALUES ($1, $2, $3)`, [
      fault.threadId,
      fault.point,
      JSON.stringify(fault),
    ]);
  }
}

export function postgresFaults(pool: Pool, schema: string): FaultSource {
  return {
    async take(threadId, point) {
      const taken = await pool.query<{ fault: ArmedFault }>(
        `DELETE FROM "${schema}".faults WHERE id = (
           SELECT id FROM "${schema}".faults WHERE thread_id = $1 AND point = $2
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING fault`,
        [threadId, point],
      );
      return taken.rows[0]?.fault;
    },
  };
}
