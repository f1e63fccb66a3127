import type { Pool, PoolClient } from "pg";

/** Runs `work` in one transaction on a pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    // `work` may have rolled back already (a claim that lost): COMMIT is then a no-op with a notice.
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // The first error is rethrown below; a failed ROLLBACK ends with the connection anyway.
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
