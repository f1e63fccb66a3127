import { Pool, type PoolClient, type PoolConfig } from "pg";
import type { ThreadLock } from "./thread-lock";

export interface PostgresThreadLockOptions {
  /** Settings for the lock's own pool: each held or awaited lock keeps one connection. */
  readonly connectionString?: string;
  /** @default 20 */
  readonly maxConnections?: number;
  /** Separates these locks from other users of the database's advisory locks. @default "agui-outbox-gateway" */
  readonly namespace?: string;
}

/**
 * {@link ThreadLock} across every gateway replica on one Postgres: a session
 * advisory lock on a hash of the key, held on a connection of its own for as
 * long as the run. A replica that dies drops its connections, and Postgres
 * frees its locks with them, so no lease is needed. Two keys with one hash
 * only wait for each other.
 */
export class PostgresThreadLock implements ThreadLock {
  readonly #pool: Pool;
  readonly #namespace: string;

  constructor(options: PostgresThreadLockOptions & PoolConfig = {}) {
    const { maxConnections, namespace, ...pool } = options;
    this.#pool = new Pool({ ...pool, max: maxConnections ?? 20 });
    // An idle connection that fails (the server restarted) must not crash the process.
    this.#pool.on("error", () => {});
    this.#namespace = namespace ?? "agui-outbox-gateway";
  }

  async acquire(key: string): Promise<() => void> {
    const client = await this.#pool.connect();
    const lockKey = `${this.#namespace}:${key}`;
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [lockKey]);
    } catch (error) {
      client.release(true);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      unlock(client, lockKey);
    };
  }

  /** Closes the pool; locks still held are freed with their connections. */
  async close(): Promise<void> {
    await this.#pool.end();
  }
}

/** Back to the pool once unlocked; a connection that cannot unlock is closed, which frees the lock too. */
function unlock(client: PoolClient, lockKey: string): void {
  client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [lockKey]).then(
    () => client.release(),
    () => client.release(true),
  );
}
