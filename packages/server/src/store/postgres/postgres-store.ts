import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { type ClientConfig, Pool, type PoolClient } from "pg";
import type { BackgroundRunRecord, NewBackgroundRun } from "../background-records";
import type { CommitWindow, ContractStore } from "../contract-store";
import {
  type ClaimRequest,
  type IdempotencyRecord,
  type NewOccurrence,
  type Occurrence,
  type OccurrenceRef,
  OccurrenceState,
  type ReservedKey,
  type RetentionWindows,
  type RunRecord,
  type Settlement,
  type StoredFrame,
  type StoredToolResult,
  type SweepResult,
} from "../records";
import { ORPHANED_RUN_ERROR } from "../release-claim";
import type { StoreLimits } from "../run-bounds";
import { BackgroundQueries } from "./background-queries";
import { enforceCaps, POSTGRES_LIMITS } from "./cap-queries";
import { LiveTail } from "./live-tail";
import { migrate, NOW_MS, quoteIdent } from "./migrations";
import { type OccurrenceRow, occurrenceFromRow, RELEASE_SET, type RunRow } from "./rows";
import { RunLogQueries } from "./run-log-queries";
import { inTransaction } from "./transaction";

export interface PostgresStoreOptions {
  /** A pool you own (closed by you), or connection settings for one the store owns. */
  readonly pool?: Pool;
  readonly connectionString?: string;
  /** Tables live in this schema. @default "agui_outbox" */
  readonly schema?: string;
  /** Apply pending migrations on open. @default true */
  readonly migrate?: boolean;
  /** How many lapsed claims or runs one sweep takes. @default 100 */
  readonly sweepBatch?: number;
  /**
   * Caps on run logs, applied at each sweep (so they may be passed between two).
   * @default { maxBytes: 4 GiB, maxRuns: 1000000, maxBytesPerIdentity: 256 MiB, maxRunsPerIdentity: 100000 }
   */
  readonly limits?: StoreLimits;
  /**
   * How long a flowing run's events wait for more to share a commit (each
   * commit is an fsync): a few ms of latency before readers see them, for
   * tens of times fewer commits. `{ waitMs: 0 }` commits each batch at once.
   * @default { waitMs: 10, maxEvents: 256 }
   */
  readonly commitWindow?: Partial<CommitWindow>;
}

const COMMIT_WINDOW: CommitWindow = { waitMs: 10, maxEvents: 256 };

/**
 * The contract on Postgres, for several server replicas on one database.
 * Claims are a conditional update on each occurrence's version inside one
 * transaction; leases and windows use the database clock; the sweeper takes
 * lapsed leases with `FOR UPDATE SKIP LOCKED`; every appended event sends a
 * `NOTIFY` so readers on any replica tail the log.
 */
export class PostgresStore implements ContractStore {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #s: string;
  readonly #sweepBatch: number;
  readonly #background: BackgroundQueries;
  readonly #runLog: RunLogQueries;
  readonly #tail: LiveTail;
  readonly #limits: Required<StoreLimits>;
  readonly commitWindow: CommitWindow;
  #closed = false;

  private constructor(options: PostgresStoreOptions, pool: Pool, clientConfig: ClientConfig) {
    this.#pool = pool;
    this.#ownsPool = options.pool === undefined;
    this.#schema = options.schema ?? "agui_outbox";
    this.#s = quoteIdent(this.#schema);
    const channel = `${this.#schema}_events`;
    this.#background = new BackgroundQueries(pool, this.#s);
    // The listener connects as the pool does: with the settings given, or those of the pool passed in.
    this.#tail = new LiveTail(
      this.#ownsPool ? clientConfig : (pool as unknown as { options: ClientConfig }).options,
      channel,
    );
    this.#runLog = new RunLogQueries(pool, this.#s, channel, this.#tail.writer);
    this.#sweepBatch = options.sweepBatch ?? 100;
    this.#limits = { ...POSTGRES_LIMITS, ...options.limits };
    this.commitWindow = { ...COMMIT_WINDOW, ...options.commitWindow };
  }

  /** Connects, and applies pending migrations unless told not to. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const clientConfig: ClientConfig =
      options.connectionString === undefined ? {} : { connectionString: options.connectionString };
    const pool = options.pool ?? new Pool({ ...clientConfig, max: 10 });
    const store = new PostgresStore(options, pool, options.pool === undefined ? clientConfig : {});
    if (options.migrate ?? true) {
      const client = await pool.connect();
      try {
        await migrate(client, store.#schema);
      } finally {
        client.release();
      }
    }
    return store;
  }

  async now(): Promise<number> {
    const result = await this.#pool.query<{ now: string }>(`SELECT ${NOW_MS} AS now`);
    return Number(result.rows[0]?.now);
  }

  async reserveKey(record: Omit<IdempotencyRecord, "createdAt">): Promise<ReservedKey> {
    const s = this.#s;
    const inserted = await this.#pool.query(
      `INSERT INTO ${s}.idempotency_keys (key, body_hash, run_id, thread_id, created_at)
       VALUES ($1, $2, $3, $4, ${NOW_MS}) ON CONFLICT (key) DO NOTHING`,
      [record.key, record.bodyHash, record.runId, record.threadId],
    );
    const found = await this.#pool.query<{
      key: string;
      body_hash: string;
      run_id: string;
      thread_id: string;
      created_at: string;
    }>(`SELECT * FROM ${s}.idempotency_keys WHERE key = $1`, [record.key]);
    const row = found.rows[0];
    if (row === undefined) throw new Error(`idempotency key ${record.key} vanished while it was reserved`);
    return {
      key: row.key,
      bodyHash: row.body_hash,
      runId: row.run_id,
      threadId: row.thread_id,
      createdAt: Number(row.created_at),
      created: inserted.rowCount === 1,
    };
  }

  async openOccurrences(occurrences: readonly NewOccurrence[]): Promise<void> {
    if (occurrences.length === 0) return;
    const rows = occurrences.map((occurrence, ordinal) => ({
      ordinal,
      thread_id: occurrence.threadId,
      interrupt_id: occurrence.interruptId,
      tool_call_id: occurrence.toolCallId,
      tool_name: occurrence.toolName,
      args: occurrence.args,
      interrupt: occurrence.interrupt,
      expires_at: occurrence.expiresAt,
    }));
    await this.#pool.query(
      `INSERT INTO ${this.#s}.occurrences
         (thread_id, interrupt_id, tool_call_id, tool_name, args, interrupt, created_at, expires_at, state, version)
       SELECT r.thread_id, r.interrupt_id, r.tool_call_id, r.tool_name, r.args, r.interrupt,
              ${NOW_MS} + r.ordinal, r.expires_at, '${OccurrenceState.pending}', 1
       FROM jsonb_to_recordset($1::jsonb) AS r(thread_id text, interrupt_id text,
              tool_call_id text, tool_name text, args jsonb, interrupt jsonb, expires_at bigint, ordinal bigint)
       ON CONFLICT (thread_id, interrupt_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  async threadOccurrences(threadId: string): Promise<Occurrence[]> {
    const s = this.#s;
    const result = await this.#pool.query<OccurrenceRow>(
      `SELECT o.*, oc.key AS oc_key, oc.run_id AS oc_run_id, oc.thread_id AS oc_thread_id,
              oc.events AS oc_events, oc.at AS oc_at
       FROM ${s}.occurrences o LEFT JOIN ${s}.outcomes oc ON oc.key = o.outcome_key
       WHERE o.thread_id = $1 ORDER BY o.created_at, o.interrupt_id`,
      [threadId],
    );
    return result.rows.map(occurrenceFromRow);
  }

  async claim(request: ClaimRequest): Promise<boolean> {
    if (request.claims.length === 0) return true;
    const claims = request.claims.map((claim) => ({
      thread_id: claim.ref.threadId,
      interrupt_id: claim.ref.interruptId,
      version: claim.version,
      decision: claim.decision,
    }));
    return this.#transaction(async (client) => {
      const updated = await client.query(
        `UPDATE ${this.#s}.occurrences o SET
           state = CASE WHEN o.result IS NULL THEN '${OccurrenceState.claimed}' ELSE '${OccurrenceState.executed}' END,
           claim_run_id = $2, claim_key = $3, lease_until = ${NOW_MS} + $4, decision = c.decision,
           version = o.version + 1
         FROM jsonb_to_recordset($1::jsonb) AS c(thread_id text, interrupt_id text, version integer, decision jsonb)
         WHERE o.thread_id = c.thread_id AND o.interrupt_id = c.interrupt_id AND o.version = c.version`,
        [JSON.stringify(claims), request.runId, request.key, request.leaseMs],
      );
      if (updated.rowCount !== claims.length) {
        await client.query("ROLLBACK");
        return false;
      }
      return true;
    });
  }

  async beginExecution(ref: OccurrenceRef, runId: string, leaseMs: number): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE ${this.#s}.occurrences SET state = '${OccurrenceState.executing}',
         lease_until = ${NOW_MS} + $4, version = version + 1
       WHERE thread_id = $1 AND interrupt_id = $2 AND claim_run_id = $3 AND state = '${OccurrenceState.claimed}'`,
      [ref.threadId, ref.interruptId, runId, leaseMs],
    );
    return result.rowCount === 1;
  }

  async undoExecution(ref: OccurrenceRef, runId: string): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE ${this.#s}.occurrences SET state = '${OccurrenceState.claimed}', version = version + 1
       WHERE thread_id = $1 AND interrupt_id = $2 AND claim_run_id = $3 AND state = '${OccurrenceState.executing}'`,
      [ref.threadId, ref.interruptId, runId],
    );
    return result.rowCount === 1;
  }

  async storeResult(
    ref: OccurrenceRef,
    runId: string,
    result: StoredToolResult,
    leaseMs: number,
  ): Promise<boolean> {
    const updated = await this.#pool.query(
      `UPDATE ${this.#s}.occurrences SET state = '${OccurrenceState.executed}', result = $4,
         lease_until = ${NOW_MS} + $5, version = version + 1
       WHERE thread_id = $1 AND interrupt_id = $2 AND claim_run_id = $3 AND state = '${OccurrenceState.executing}'`,
      [ref.threadId, ref.interruptId, runId, JSON.stringify(result), leaseMs],
    );
    return updated.rowCount === 1;
  }

  async renewLeases(runId: string, owner: string, leaseMs: number): Promise<void> {
    const s = this.#s;
    await this.#pool.query(
      `WITH claims AS (
         UPDATE ${s}.occurrences SET lease_until = ${NOW_MS} + $3 WHERE claim_run_id = $1
       )
       UPDATE ${s}.runs SET lease_until = ${NOW_MS} + $3 WHERE run_id = $1 AND owner = $2 AND terminal IS NULL`,
      [runId, owner, leaseMs],
    );
  }

  async sweep(): Promise<SweepResult> {
    const s = this.#s;
    return this.#transaction(async (client) => {
      const claims = await client.query(
        `WITH lapsed AS (
           SELECT thread_id, interrupt_id FROM ${s}.occurrences
           WHERE claim_run_id IS NOT NULL AND lease_until <= ${NOW_MS}
           ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         UPDATE ${s}.occurrences o SET ${RELEASE_SET}
         FROM lapsed WHERE o.thread_id = lapsed.thread_id AND o.interrupt_id = lapsed.interrupt_id`,
        [this.#sweepBatch],
      );
      const orphans = await client.query<RunRow>(
        `SELECT * FROM ${s}.runs
         WHERE terminal IS NULL AND owner IS NOT NULL AND lease_until <= ${NOW_MS}
         ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.#sweepBatch],
      );
      for (const row of orphans.rows)
        await this.#runLog.appendRows(client, row.run_id, row.owner, [ORPHANED_RUN_ERROR]);
      return { claims: claims.rowCount ?? 0, runs: orphans.rows.length };
    });
  }

  beginRun(runId: string, threadId: string, owner: string, leaseMs: number): Promise<RunRecord | undefined> {
    return this.#runLog.beginRun(runId, threadId, owner, leaseMs);
  }

  append(
    runId: string,
    owner: string,
    event: AgUiEvent,
    settle?: Settlement,
  ): Promise<StoredFrame | undefined> {
    return this.appendMany(runId, owner, [event], settle).then((frames) => frames?.[0]);
  }

  async appendMany(
    runId: string,
    owner: string,
    events: readonly AgUiEvent[],
    settle?: Settlement,
  ): Promise<StoredFrame[] | undefined> {
    const frames = await this.#runLog.appendMany(runId, owner, events, settle);
    // Committed: this instance's readers take them as they are, with no read back (the others are notified).
    if (frames !== undefined) this.#tail.deliver(runId, frames);
    return frames;
  }

  frames(runId: string, afterSeq: number): Promise<StoredFrame[]> {
    return this.#runLog.frames(runId, afterSeq);
  }

  async openRunsOf(owner: string): Promise<string[]> {
    const result = await this.#pool.query<{ run_id: string }>(
      `SELECT run_id FROM ${this.#s}.runs WHERE terminal IS NULL AND owner = $1`,
      [owner],
    );
    return result.rows.map((row) => row.run_id);
  }

  run(runId: string): Promise<RunRecord | undefined> {
    return this.#runLog.run(runId);
  }

  async watch(runId: string, wake: (frames?: readonly StoredFrame[]) => void): Promise<() => void> {
    return this.#tail.watch(runId, wake);
  }

  createBackground(record: NewBackgroundRun): Promise<boolean> {
    return this.#background.create(record);
  }

  background(runId: string): Promise<BackgroundRunRecord | undefined> {
    return this.#background.byRunId(runId);
  }

  backgroundByToken(token: string): Promise<BackgroundRunRecord | undefined> {
    return this.#background.byToken(token);
  }

  updateBackground(record: BackgroundRunRecord): Promise<boolean> {
    return this.#background.update(record);
  }

  renewBackgroundPoll(runId: string, pollId: string, leaseMs: number): Promise<void> {
    return this.#background.renewPoll(runId, pollId, leaseMs);
  }

  async prune(windows: RetentionWindows): Promise<void> {
    await this.#background.prune(windows.idempotencyWindowMs);
    const s = this.#s;
    const idem = windows.idempotencyWindowMs;
    await this.#transaction(async (client) => {
      await client.query(
        `DELETE FROM ${s}.runs WHERE terminal IS NOT NULL AND updated_at + $1 <= ${NOW_MS}`,
        [idem],
      );
      const expired = await client.query<{ run_id: string }>(
        `UPDATE ${s}.runs SET expired = true, log_bytes = 0
         WHERE terminal IS NOT NULL AND NOT expired AND updated_at + $1 <= ${NOW_MS} RETURNING run_id`,
        [windows.eventLogRetentionMs],
      );
      if (expired.rows.length > 0) {
        await client.query(`DELETE FROM ${s}.run_events WHERE run_id = ANY($1::text[])`, [
          expired.rows.map((row) => row.run_id),
        ]);
      }
      await client.query(`DELETE FROM ${s}.idempotency_keys WHERE created_at + $1 <= ${NOW_MS}`, [idem]);
      await client.query(`DELETE FROM ${s}.outcomes WHERE at + $1 <= ${NOW_MS}`, [idem]);
      await enforceCaps(client, s, this.#limits);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tail.close();
    if (this.#ownsPool) await this.#pool.end();
  }

  #transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, work);
  }
}
