import type { AgUiEvent } from "@agui-outbox/core/protocol";
import type { BackgroundRunRecord, NewBackgroundRun } from "./background-records";
import type {
  ClaimRequest,
  IdempotencyRecord,
  NewOccurrence,
  Occurrence,
  OccurrenceRef,
  ReservedKey,
  RetentionWindows,
  RunRecord,
  Settlement,
  StoredFrame,
  StoredToolResult,
  SweepResult,
} from "./records";

/**
 * Where the recovery contract keeps its state. Every method is one atomic step:
 * on Postgres one transaction, in memory one synchronous mutation. Every
 * conditional write names the run that must still hold the claim, so a replica
 * whose lease lapsed can never overwrite the one that took over.
 *
 * All implementations pass one contract suite (`test/store-contract.ts`).
 */
/**
 * How long an append may wait for more of its run's events to share its
 * commit, where each commit is costly (an fsync). It bounds the wait both ways:
 * a write goes after `waitMs` or once `maxEvents` wait, whichever comes first.
 */
export interface CommitWindow {
  readonly waitMs: number;
  readonly maxEvents: number;
}

export interface ContractStore {
  /**
   * Events that arrive while a write is in flight wait up to this for company
   * before the next write (never the first of a burst, nor an awaited one);
   * none waits without it. A reader sees an event only once it is committed.
   */
  readonly commitWindow?: CommitWindow;

  /** The store's clock in ms since the epoch; leases and windows are measured on it (the database clock on Postgres). */
  now(): Promise<number>;

  /** Records the key (stamped with the store's clock), or returns the record already there for it: the unique key decides. */
  reserveKey(record: Omit<IdempotencyRecord, "createdAt">): Promise<ReservedKey>;

  /** Opens PENDING occurrences for a run's interrupts; an id already open in the thread is left alone. */
  openOccurrences(occurrences: readonly NewOccurrence[]): Promise<void>;
  threadOccurrences(threadId: string): Promise<Occurrence[]>;

  /**
   * Claims the whole batch, or nothing: each occurrence must still be at the
   * version its verdict was decided on. Returns false when another writer got
   * there first (re-read and decide again).
   */
  claim(request: ClaimRequest): Promise<boolean>;
  /** CLAIMED → EXECUTING, only while `runId` holds the claim and no result is stored. */
  beginExecution(ref: OccurrenceRef, runId: string, leaseMs: number): Promise<boolean>;
  /**
   * EXECUTING → CLAIMED, only while `runId` holds the claim and no result is
   * stored: the agent said the tool never ran (a gateway's upstream refusing
   * after it began), so a rollback leaves PENDING rather than INDETERMINATE.
   */
  undoExecution(ref: OccurrenceRef, runId: string): Promise<boolean>;
  /** EXECUTING → EXECUTED with the result, only while `runId` holds the claim. */
  storeResult(ref: OccurrenceRef, runId: string, result: StoredToolResult, leaseMs: number): Promise<boolean>;
  /** Extends the leases of the run's claims and of the run itself. */
  renewLeases(runId: string, owner: string, leaseMs: number): Promise<void>;
  /**
   * Takes what lapsed: claims past their lease are released to PENDING (keeping
   * any stored result) or, cut off mid-tool with no result, marked
   * INDETERMINATE; runs whose owner stopped renewing get their `RUN_ERROR`.
   */
  sweep(): Promise<SweepResult>;

  /**
   * Starts an attempt of a run (a new run, or a retry continuing its seq
   * numbering). Undefined while another attempt of it is still running, and
   * when the runId is another thread's: a runId is created once, by its thread.
   */
  beginRun(runId: string, threadId: string, owner: string, leaseMs: number): Promise<RunRecord | undefined>;
  /**
   * Appends one event, stamped with its cursor (`metadata["x-stream"]`). A
   * terminal event ends the attempt and applies `settle` in the same step:
   * commit writes the outcome record and final states, rollback releases the
   * run's claims. Returns undefined when `owner` no longer runs this attempt.
   */
  append(
    runId: string,
    owner: string,
    event: AgUiEvent,
    settle?: Settlement,
  ): Promise<StoredFrame | undefined>;
  /**
   * Appends events as one step, as {@link append} would one by one: consecutive
   * seqs in order, all or none (undefined when `owner` no longer runs this
   * attempt). Only the last may be terminal, and `settle` applies with it; a
   * terminal event earlier is a `RangeError` and nothing is written. This is
   * the group commit: events that arrived while a write was in flight go in one.
   */
  appendMany(
    runId: string,
    owner: string,
    events: readonly AgUiEvent[],
    settle?: Settlement,
  ): Promise<StoredFrame[] | undefined>;
  frames(runId: string, afterSeq: number): Promise<StoredFrame[]>;
  /** The runs whose current attempt `owner` began and that have no terminal event yet. */
  openRunsOf(owner: string): Promise<string[]>;
  run(runId: string): Promise<RunRecord | undefined>;
  /**
   * Calls `wake` after each event appended to the run, by any instance on this
   * store. A store may hand over the committed frames themselves (consecutive,
   * in seq order) when this instance wrote them; without frames, read the log.
   */
  watch(runId: string, wake: (frames?: readonly StoredFrame[]) => void): Promise<() => void>;

  /** Creates a background run at version 1; false when one with its runId exists. */
  createBackground(record: NewBackgroundRun): Promise<boolean>;
  background(runId: string): Promise<BackgroundRunRecord | undefined>;
  /** The run that handed out this token (current, final or stale). */
  backgroundByToken(token: string): Promise<BackgroundRunRecord | undefined>;
  /**
   * Writes the run whole, only while it is still at `record.version` (the
   * version read); the stored copy gets `version + 1`. False when another poll
   * wrote in between. Every token in `record.tokens` finds the run afterwards.
   */
  updateBackground(record: BackgroundRunRecord): Promise<boolean>;
  /** Extends the poll lease, only while `pollId` holds it; the version is left alone. */
  renewBackgroundPoll(runId: string, pollId: string, leaseMs: number): Promise<void>;

  /** Expires event logs past their retention, and idempotency records, outcomes and ended background runs past their window. */
  prune(windows: RetentionWindows): Promise<void>;
  close(): Promise<void>;
}
