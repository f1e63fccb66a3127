import type { Message } from "@agui-outbox/core/protocol";
import type { Pool } from "pg";
import type { Fault, FaultPoint } from "../chaos/fault";
import type { LedgerEntry } from "../state/mock-state";
import { unscoped } from "./demo-identity";
import type { FaultSource, ThreadHistory } from "./deploy-agent";
import type { OccurrenceView } from "./fixed-mode";

/**
 * The mock's own state on Postgres, beside the library's tables, so every
 * instance on the database shares it: armed faults (each firing one row,
 * taken once by whichever instance reaches its point), the ledger of deploys,
 * each thread's messages for hydration, and the keyed requests received
 * (`/__resumes`). `s` is the quoted schema name.
 */
export async function createMockTables(pool: Pool, s: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // Instances starting together create the tables once.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('agui_outbox_mock_tables'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.mock_faults (
      id bigserial PRIMARY KEY, point text NOT NULL, thread_id text, fault jsonb NOT NULL)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.mock_ledger (
      id bigserial PRIMARY KEY, thread_id text NOT NULL, entry jsonb NOT NULL)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.mock_messages (
      id bigserial PRIMARY KEY, thread_id text NOT NULL, message_id text NOT NULL, message jsonb NOT NULL,
      UNIQUE (thread_id, message_id))`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.mock_resumes (
      id bigserial PRIMARY KEY, thread_id text, entry jsonb NOT NULL)`);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function armFaults(pool: Pool, s: string, faults: readonly Fault[]): Promise<void> {
  for (const fault of faults) {
    for (let firing = 0; firing < fault.times; firing += 1) {
      await pool.query(`INSERT INTO ${s}.mock_faults (point, thread_id, fault) VALUES ($1, $2, $3)`, [
        fault.point,
        fault.threadId ?? null,
        JSON.stringify(fault),
      ]);
    }
  }
}

export function tableFaults(pool: Pool, s: string): FaultSource {
  return {
    async take(point: FaultPoint, threadId: string) {
      const taken = await pool.query<{ fault: Fault }>(
        `DELETE FROM ${s}.mock_faults WHERE id = (
           SELECT id FROM ${s}.mock_faults WHERE point = $1 AND (thread_id IS NULL OR thread_id = $2)
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING fault`,
        [point, threadId],
      );
      return taken.rows[0]?.fault;
    },
  };
}

export async function recordDeploy(pool: Pool, s: string, entry: LedgerEntry): Promise<void> {
  await pool.query(`INSERT INTO ${s}.mock_ledger (thread_id, entry) VALUES ($1, $2)`, [
    entry.threadId,
    JSON.stringify(entry),
  ]);
}

export async function ledgerOf(pool: Pool, s: string, threadId: string | null): Promise<LedgerEntry[]> {
  const rows = await pool.query<{ entry: LedgerEntry }>(
    `SELECT entry FROM ${s}.mock_ledger WHERE $1::text IS NULL OR thread_id = $1 ORDER BY id`,
    [threadId],
  );
  return rows.rows.map((row) => row.entry);
}

export function tableHistory(pool: Pool, s: string): ThreadHistory {
  return {
    async messages(threadId) {
      const rows = await pool.query<{ message: Message }>(
        `SELECT message FROM ${s}.mock_messages WHERE thread_id = $1 ORDER BY id`,
        [threadId],
      );
      return rows.rows.map((row) => row.message);
    },
    async append(threadId, messages) {
      for (const message of messages) {
        await pool.query(
          `INSERT INTO ${s}.mock_messages (thread_id, message_id, message) VALUES ($1, $2, $3)
           ON CONFLICT (thread_id, message_id) DO NOTHING`,
          [threadId, message.id, JSON.stringify(message)],
        );
      }
    },
  };
}

/** One `POST /agent` that carried an Idempotency-Key, as `/__resumes` lists it. */
export interface ResumeReceived {
  readonly key: string;
  readonly threadId: string | null;
  readonly at: number;
}

export async function recordResume(pool: Pool, s: string, resume: ResumeReceived): Promise<void> {
  await pool.query(`INSERT INTO ${s}.mock_resumes (thread_id, entry) VALUES ($1, $2)`, [
    resume.threadId,
    JSON.stringify(resume),
  ]);
}

export async function resumesOf(pool: Pool, s: string, threadId: string | null): Promise<ResumeReceived[]> {
  const rows = await pool.query<{ entry: ResumeReceived }>(
    `SELECT entry FROM ${s}.mock_resumes WHERE $1::text IS NULL OR thread_id = $1 ORDER BY id`,
    [threadId],
  );
  return rows.rows.map((row) => row.entry);
}

export async function faultsArmed(pool: Pool, s: string): Promise<Fault[]> {
  const rows = await pool.query<{ fault: Fault }>(`SELECT fault FROM ${s}.mock_faults ORDER BY id`);
  return rows.rows.map((row) => ({ ...row.fault, times: 1 }));
}

/**
 * `/__occurrences` read across threads from the library's `occurrences` table
 * (schema version 1 on): every replica's claims, the answers' content left out.
 */
export async function occurrencesOf(
  pool: Pool,
  s: string,
  threadId: string | null,
): Promise<OccurrenceView[]> {
  const rows = await pool.query<{
    thread_id: string;
    interrupt_id: string;
    state: string;
    claim_run_id: string | null;
    lease_until: string | null;
    result_stored: boolean;
    resolved_by: string | null;
    expires_at: string | null;
  }>(
    `SELECT o.thread_id, o.interrupt_id, o.state, o.claim_run_id, o.lease_until,
            o.result IS NOT NULL AS result_stored, outcome.run_id AS resolved_by,
            o.interrupt->>'expiresAt' AS expires_at
       FROM ${s}.occurrences o LEFT JOIN ${s}.outcomes outcome ON outcome.key = o.outcome_key
      WHERE $1::text IS NULL OR substr(o.thread_id, strpos(o.thread_id, chr(31)) + 1) = $1
      ORDER BY o.created_at, o.interrupt_id`,
    [threadId],
  );
  return rows.rows.map((row) => ({
    // Stored ids carry their identity's scope (see demo-identity.ts); the view shows them as sent.
    threadId: unscoped(row.thread_id),
    interruptId: row.interrupt_id,
    state: row.state,
    claimedBy: row.claim_run_id === null ? null : unscoped(row.claim_run_id),
    leaseUntil: row.claim_run_id === null ? null : new Date(Number(row.lease_until)).toISOString(),
    resultStored: row.result_stored,
    resolvedBy: row.resolved_by === null ? null : unscoped(row.resolved_by),
    expiresAt: row.expires_at,
  }));
}

/** The SQLSTATE of a transaction Postgres ended to break a lock cycle (a deadlock). */
const DEADLOCK_DETECTED = "40P01";
const RESET_ATTEMPTS = 5;

/**
 * `/__reset` on Postgres: empties the library's tables and the mock's in one
 * transaction. Runs in flight on other replicas are not stopped; their next
 * conditional write finds no row and changes nothing.
 */
export async function resetTables(pool: Pool, s: string): Promise<void> {
  const tables = [
    "run_events",
    "runs",
    "occurrences",
    "outcomes",
    "idempotency_keys",
    "background_tokens",
    "background_runs",
    "mock_faults",
    "mock_ledger",
    "mock_messages",
    "mock_resumes",
  ];
  // TRUNCATE locks its tables one after another, so a replica's sweeper locking rows of two of
  // them meanwhile can deadlock it; Postgres breaks the tie by failing one side: try again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await pool.query(`TRUNCATE ${tables.map((table) => `${s}.${table}`).join(", ")}`);
      return;
    } catch (error) {
      const deadlock = (error as { code?: unknown } | null)?.code === DEADLOCK_DETECTED;
      if (!deadlock || attempt >= RESET_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
