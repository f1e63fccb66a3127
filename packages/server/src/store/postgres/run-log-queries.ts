import { type AgUiEvent, MetadataKey } from "@agui-outbox/core/protocol";
import type { Pool, PoolClient } from "pg";
import { checkBatch, isTerminalEvent, type RunRecord, type Settlement, type StoredFrame } from "../records";
import { stampCursor } from "../release-claim";
import { NOW_MS } from "./migrations";
import { RELEASE_SET, type RunRow, runFromRow } from "./rows";
import { inTransaction } from "./transaction";

/** SQL for `json` with its cursor (`run_id`, `seq`) in its metadata, as `stampCursor` does. */
const stamped = (json: string, seq: string) =>
  `jsonb_set(${json}, '{metadata}', coalesce((${json}) -> 'metadata', '{}'::jsonb) ||
     jsonb_build_object('${MetadataKey.stream}', jsonb_build_object('runId', run_id, 'seq', ${seq})))`;

/**
 * Runs and their event logs on Postgres: attempts begun under an owner's lease,
 * one statement per appended batch of events (seqs, frames, terminal event and
 * `NOTIFY` together), and the settlement a terminal event carries (commit or rollback)
 * in the same transaction. The log keeps each event as it arrived; its cursor
 * is stamped when it is read (the terminal and outcome columns keep theirs):
 * most frames are handed to readers from memory and never read back, so
 * stamping at append would cost the database per event for nothing.
 * `s` is the quoted schema name.
 */
export class RunLogQueries {
  readonly #pool: Pool;
  readonly #s: string;
  readonly #channel: string;
  readonly #writer: string;

  /** `writer` tags this store's notifications (see `LiveTail.deliver`). */
  constructor(pool: Pool, s: string, channel: string, writer: string) {
    this.#pool = pool;
    this.#s = s;
    this.#channel = channel;
    this.#writer = writer;
  }

  async beginRun(
    runId: string,
    threadId: string,
    owner: string,
    leaseMs: number,
  ): Promise<RunRecord | undefined> {
    const s = this.#s;
    const result = await this.#pool.query<RunRow>(
      `INSERT INTO ${s}.runs AS r (run_id, thread_id, last_seq, terminal, owner, lease_until, updated_at)
       VALUES ($1, $2, 0, NULL, $3, ${NOW_MS} + $4, ${NOW_MS})
       ON CONFLICT (run_id) DO UPDATE SET terminal = NULL, owner = $3, lease_until = ${NOW_MS} + $4,
         updated_at = ${NOW_MS}, expired = false
       WHERE r.terminal IS NOT NULL AND r.thread_id = EXCLUDED.thread_id
       RETURNING *`,
      [runId, threadId, owner, leaseMs],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : runFromRow(row);
  }

  async appendMany(
    runId: string,
    owner: string,
    events: readonly AgUiEvent[],
    settle?: Settlement,
  ): Promise<StoredFrame[] | undefined> {
    checkBatch(events);
    const last = events.at(-1);
    // Most batches are one statement; one ending in a terminal event that settles claims shares its transaction.
    if (settle === undefined || last === undefined || !isTerminalEvent(last))
      return this.appendRows(this.#pool, runId, owner, events, this.#writer);
    return inTransaction(this.#pool, async (client) => {
      const frames = await this.appendRows(client, runId, owner, events, this.#writer);
      const terminal = frames?.at(-1);
      if (frames === undefined || terminal === undefined) return undefined;
      const run = await client.query<RunRow>(`SELECT * FROM ${this.#s}.runs WHERE run_id = $1`, [runId]);
      const row = run.rows[0];
      if (row !== undefined) await this.#settle(client, runFromRow(row), settle, terminal);
      return frames;
    });
  }

  async frames(runId: string, afterSeq: number): Promise<StoredFrame[]> {
    const result = await this.#pool.query<{ seq: number; event: AgUiEvent }>(
      `SELECT seq, event FROM ${this.#s}.run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
      [runId, afterSeq],
    );
    return result.rows.map((row) => ({ seq: row.seq, event: stampCursor(row.event, runId, row.seq) }));
  }

  async run(runId: string): Promise<RunRecord | undefined> {
    const result = await this.#pool.query<RunRow>(`SELECT * FROM ${this.#s}.runs WHERE run_id = $1`, [runId]);
    const row = result.rows[0];
    return row === undefined ? undefined : runFromRow(row);
  }

  /**
   * One statement for the whole batch: move the run's seq on by its length (only
   * while `owner` runs its open attempt), insert each event as it came, set the
   * terminal event (a batch's last, stamped), and NOTIFY readers once
   * (delivered on commit), tagged `writer` when its caller hands the frames to
   * this store's readers itself ("-": every reader reads). Undefined when the run refused it.
   */
  async appendRows(
    db: Pool | PoolClient,
    runId: string,
    owner: string | null,
    events: readonly AgUiEvent[],
    writer = "-",
  ): Promise<StoredFrame[] | undefined> {
    const s = this.#s;
    const mine = `run_id = $1 AND ($2::text IS NULL OR owner = $2) AND terminal IS NULL`;
    if (events.length === 0) {
      const open = await db.query(`SELECT 1 FROM ${s}.runs WHERE ${mine}`, [runId, owner]);
      return open.rows.length === 0 ? undefined : [];
    }
    const texts = events.map((event) => JSON.stringify(event));
    const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    const last = events.at(-1) as AgUiEvent;
    const result = await db.query<{ last_seq: number }>(
      `WITH run AS (
         UPDATE ${s}.runs SET last_seq = last_seq + $6, updated_at = ${NOW_MS}, log_bytes = log_bytes + $7,
           terminal = CASE WHEN $4 THEN ${stamped("($3::jsonb -> -1)", "last_seq + $6")} ELSE NULL END
         WHERE ${mine}
         RETURNING run_id, last_seq
       ), frame AS (
         INSERT INTO ${s}.run_events (run_id, seq, event)
         SELECT run_id, last_seq - $6 + b.ord, b.event
         FROM run, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS b(event, ord)
       )
       SELECT last_seq, pg_notify($5, $8 || ' ' || $1) FROM run`,
      [
        runId,
        owner,
        `[${texts.join(",")}]`,
        isTerminalEvent(last),
        this.#channel,
        events.length,
        bytes,
        writer,
      ],
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const first = row.last_seq - events.length + 1;
    return events.map((event, index) => ({
      seq: first + index,
      event: stampCursor(event, runId, first + index),
    }));
  }

  async #settle(
    client: PoolClient,
    run: RunRecord,
    settle: Settlement,
    terminal: StoredFrame,
  ): Promise<void> {
    const s = this.#s;
    if (settle.kind === "rollback") {
      await client.query(`UPDATE ${s}.occurrences SET ${RELEASE_SET} WHERE claim_run_id = $1`, [run.runId]);
      return;
    }
    await client.query(
      `INSERT INTO ${s}.outcomes (key, run_id, thread_id, events, at)
       SELECT $1, $2, $3, coalesce(jsonb_agg(${stamped("event", "seq")} ORDER BY seq), '[]'::jsonb), ${NOW_MS}
       FROM ${s}.run_events WHERE run_id = $2 AND seq > $4 AND seq <= $5
       ON CONFLICT (key) DO NOTHING`,
      [settle.key, run.runId, run.threadId, settle.afterSeq, terminal.seq],
    );
    const finals = settle.finals.map((final) => ({
      thread_id: final.ref.threadId,
      interrupt_id: final.ref.interruptId,
      state: final.state,
    }));
    await client.query(
      `UPDATE ${s}.occurrences o SET state = f.state, claim_run_id = NULL, claim_key = NULL,
         lease_until = NULL, outcome_key = $2, version = o.version + 1
       FROM jsonb_to_recordset($1::jsonb) AS f(thread_id text, interrupt_id text, state text)
       WHERE o.thread_id = f.thread_id AND o.interrupt_id = f.interrupt_id AND o.claim_run_id = $3`,
      [JSON.stringify(finals), settle.key, run.runId],
    );
  }
}
