import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { type BackgroundRunRecord, isBackgroundEnded, type NewBackgroundRun } from "./background-records";
import type { ContractStore } from "./contract-store";
import {
  type ClaimRequest,
  checkBatch,
  type IdempotencyRecord,
  isTerminalEvent,
  type NewOccurrence,
  type Occurrence,
  type OccurrenceRef,
  OccurrenceState,
  type OutcomeRecord,
  type ReservedKey,
  type RetentionWindows,
  type RunRecord,
  type Settlement,
  type StoredFrame,
  type StoredToolResult,
  type SweepResult,
} from "./records";
import { ORPHANED_RUN_ERROR, releasedState, stampCursor } from "./release-claim";
import { RunBounds, type StoreLimits } from "./run-bounds";

/** An occurrence as kept: its outcome by key, so one batch's record is stored once. */
export type OccurrenceRow = Omit<Occurrence, "outcome"> & { readonly outcomeKey: string | null };

/** Everything a memory store holds, as plain JSON (the file store writes it whole). */
export interface MemoryDocument {
  readonly version: 1;
  occurrences: Record<string, OccurrenceRow>;
  idempotency: Record<string, IdempotencyRecord>;
  outcomes: Record<string, OutcomeRecord>;
  runs: Record<string, RunRecord>;
  frames: Record<string, StoredFrame[]>;
  background: Record<string, BackgroundRunRecord>;
  /** Every token handed out → its run. */
  backgroundTokens: Record<string, string>;
}

export function emptyDocument(): MemoryDocument {
  return {
    version: 1,
    occurrences: {},
    idempotency: {},
    outcomes: {},
    runs: {},
    frames: {},
    background: {},
    backgroundTokens: {},
  };
}

export interface MemoryStoreOptions {
  /** The store's clock. @default Date.now */
  readonly now?: () => number;
  /** Called after every change (the file store persists here). */
  readonly onChange?: (document: MemoryDocument) => void;
  /** A document to start from (the file store's last save). */
  readonly document?: MemoryDocument;
  /** Caps on run logs, evicting the oldest finished runs first (see {@link StoreLimits}). */
  readonly limits?: StoreLimits;
}

/** An event's cost against the caps: its JSON's length (UTF-16 units, close enough to bytes for a cap). */
function sizeOf(event: AgUiEvent): number {
  return JSON.stringify(event).length;
}

function refKey(ref: OccurrenceRef): string {
  return JSON.stringify([ref.threadId, ref.interruptId]);
}

/**
 * The embedded store: one process, nothing kept beyond it. Each method is one
 * synchronous mutation, so it is atomic without locks.
 */
export class MemoryStore implements ContractStore {
  readonly #now: () => number;
  readonly #onChange: (document: MemoryDocument) => void;
  readonly #doc: MemoryDocument;
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #bounds: RunBounds;

  constructor(options: MemoryStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now());
    this.#onChange = options.onChange ?? (() => {});
    this.#doc = options.document ?? emptyDocument();
    this.#bounds = new RunBounds(options.limits);
    const byAge = Object.values(this.#doc.runs).sort((a, b) => a.updatedAt - b.updatedAt);
    for (const run of byAge) {
      const bytes = (this.#doc.frames[run.runId] ?? []).reduce((sum, frame) => sum + sizeOf(frame.event), 0);
      this.#bounds.wrote(run.runId, run.threadId, bytes, run.terminal !== null);
    }
    this.#evict();
  }

  /** The bytes of run logs held now, as the caps count them. */
  get logBytes(): number {
    return this.#bounds.bytes;
  }

  async now(): Promise<number> {
    return this.#now();
  }

  async reserveKey(record: Omit<IdempotencyRecord, "createdAt">): Promise<ReservedKey> {
    const existing = this.#doc.idempotency[record.key];
    if (existing !== undefined) return { ...existing, created: false };
    const created = { ...record, createdAt: this.#now() };
    this.#doc.idempotency[record.key] = created;
    this.#changed();
    return { ...created, created: true };
  }

  async openOccurrences(occurrences: readonly NewOccurrence[]): Promise<void> {
    const now = this.#now();
    for (const occurrence of occurrences) {
      const key = refKey(occurrence);
      if (this.#doc.occurrences[key] !== undefined) continue;
      this.#doc.occurrences[key] = {
        ...occurrence,
        createdAt: now,
        state: OccurrenceState.pending,
        claim: null,
        decision: null,
        result: null,
        outcomeKey: null,
        version: 1,
      };
    }
    this.#changed();
  }

  async threadOccurrences(threadId: string): Promise<Occurrence[]> {
    return Object.values(this.#doc.occurrences)
      .filter((row) => row.threadId === threadId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((row) => this.#withOutcome(row));
  }

  async claim(request: ClaimRequest): Promise<boolean> {
    const rows = request.claims.map((claim) => this.#doc.occurrences[refKey(claim.ref)]);
    if (rows.some((row, index) => row === undefined || row.version !== request.claims[index]?.version))
      return false;
    const leaseUntil = this.#now() + request.leaseMs;
    request.claims.forEach((claim, index) => {
      const row = rows[index] as OccurrenceRow;
      this.#put({
        ...row,
        state: row.result === null ? OccurrenceState.claimed : OccurrenceState.executed,
        claim: { runId: request.runId, key: request.key, leaseUntil },
        decision: claim.decision,
      });
    });
    this.#changed();
    return true;
  }

  async beginExecution(ref: OccurrenceRef, runId: string, leaseMs: number): Promise<boolean> {
    const row = this.#doc.occurrences[refKey(ref)];
    if (row === undefined || row.claim?.runId !== runId || row.state !== OccurrenceState.claimed)
      return false;
    this.#put({
      ...row,
      state: OccurrenceState.executing,
      claim: { ...row.claim, leaseUntil: this.#now() + leaseMs },
    });
    this.#changed();
    return true;
  }

  async undoExecution(ref: OccurrenceRef, runId: string): Promise<boolean> {
    const row = this.#doc.occurrences[refKey(ref)];
    if (row === undefined || row.claim?.runId !== runId || row.state !== OccurrenceState.executing)
      return false;
    this.#put({ ...row, state: OccurrenceState.claimed });
    this.#changed();
    return true;
  }

  async storeResult(
    ref: OccurrenceRef,
    runId: string,
    result: StoredToolResult,
    leaseMs: number,
  ): Promise<boolean> {
    const row = this.#doc.occurrences[refKey(ref)];
    if (row === undefined || row.claim?.runId !== runId || row.state !== OccurrenceState.executing)
      return false;
    this.#put({
      ...row,
      state: OccurrenceState.executed,
      result,
      claim: { ...row.claim, leaseUntil: this.#now() + leaseMs },
    });
    this.#changed();
    return true;
  }

  async renewLeases(runId: string, owner: string, leaseMs: number): Promise<void> {
    const leaseUntil = this.#now() + leaseMs;
    for (const row of Object.values(this.#doc.occurrences)) {
      if (row.claim?.runId === runId) this.#put({ ...row, claim: { ...row.claim, leaseUntil } });
    }
    const run = this.#doc.runs[runId];
    if (run !== undefined && run.owner === owner && run.terminal === null)
      this.#doc.runs[runId] = { ...run, leaseUntil };
    this.#changed();
  }

  async sweep(): Promise<SweepResult> {
    const now = this.#now();
    let claims = 0;
    for (const row of Object.values(this.#doc.occurrences)) {
      if (row.claim === null || row.claim.leaseUntil > now) continue;
      this.#put({ ...row, ...releasedState({ ...row, outcome: null }) });
      claims += 1;
    }
    let runs = 0;
    for (const run of Object.values(this.#doc.runs)) {
      if (run.terminal !== null || run.leaseUntil > now || run.owner === null) continue;
      this.#appendFrames(run, [ORPHANED_RUN_ERROR]);
      runs += 1;
    }
    if (claims + runs > 0) this.#changed();
    return { claims, runs };
  }

  async beginRun(
    runId: string,
    threadId: string,
    owner: string,
    leaseMs: number,
  ): Promise<RunRecord | undefined> {
    const now = this.#now();
    const existing = this.#doc.runs[runId];
    // A runId is its thread's for good: another thread never continues it.
    if (existing !== undefined && (existing.terminal === null || existing.threadId !== threadId))
      return undefined;
    const run: RunRecord = {
      runId,
      threadId,
      lastSeq: existing?.lastSeq ?? 0,
      terminal: null,
      owner,
      leaseUntil: now + leaseMs,
      updatedAt: now,
      expired: false,
    };
    this.#doc.runs[runId] = run;
    this.#doc.frames[runId] ??= [];
    this.#bounds.wrote(runId, threadId, 0, false);
    this.#evict();
    this.#changed();
    return run;
  }

  async append(
    runId: string,
    owner: string,
    event: AgUiEvent,
    settle?: Settlement,
  ): Promise<StoredFrame | undefined> {
    return (await this.appendMany(runId, owner, [event], settle))?.[0];
  }

  async appendMany(
    runId: string,
    owner: string,
    events: readonly AgUiEvent[],
    settle?: Settlement,
  ): Promise<StoredFrame[] | undefined> {
    checkBatch(events);
    const run = this.#doc.runs[runId];
    if (run === undefined || run.owner !== owner || run.terminal !== null) return undefined;
    const frames = this.#appendFrames(run, events);
    const last = frames.at(-1);
    if (last !== undefined && isTerminalEvent(last.event)) {
      if (settle !== undefined) this.#settle(run, settle, last);
      this.#evict();
    }
    if (frames.length > 0) this.#changed();
    return frames;
  }

  async openRunsOf(owner: string): Promise<string[]> {
    return Object.values(this.#doc.runs)
      .filter((run) => run.terminal === null && run.owner === owner)
      .map((run) => run.runId);
  }

  async frames(runId: string, afterSeq: number): Promise<StoredFrame[]> {
    const frames = this.#doc.frames[runId] ?? [];
    // Gap-free from its first seq: a slice, not a scan (a live reader reads once per event).
    return frames.slice(Math.max(0, afterSeq - (frames[0]?.seq ?? 1) + 1));
  }

  async run(runId: string): Promise<RunRecord | undefined> {
    return this.#doc.runs[runId];
  }

  async watch(runId: string, wake: () => void): Promise<() => void> {
    let set = this.#watchers.get(runId);
    if (set === undefined) {
      set = new Set();
      this.#watchers.set(runId, set);
    }
    set.add(wake);
    return () => {
      const current = this.#watchers.get(runId);
      current?.delete(wake);
      if (current?.size === 0) this.#watchers.delete(runId);
    };
  }

  async createBackground(record: NewBackgroundRun): Promise<boolean> {
    const runs = this.#doc.background;
    if (runs[record.runId] !== undefined) return false;
    this.#putBackground({ ...record, version: 1, updatedAt: this.#now() });
    return true;
  }

  async background(runId: string): Promise<BackgroundRunRecord | undefined> {
    return this.#doc.background[runId];
  }

  async backgroundByToken(token: string): Promise<BackgroundRunRecord | undefined> {
    const runId = this.#doc.backgroundTokens[token];
    return runId === undefined ? undefined : this.#doc.background[runId];
  }

  async updateBackground(record: BackgroundRunRecord): Promise<boolean> {
    const stored = this.#doc.background[record.runId];
    if (stored === undefined || stored.version !== record.version) return false;
    this.#putBackground({ ...record, version: record.version + 1, updatedAt: this.#now() });
    return true;
  }

  async renewBackgroundPoll(runId: string, pollId: string, leaseMs: number): Promise<void> {
    const stored = this.#doc.background[runId];
    if (stored?.poll?.pollId !== pollId) return;
    this.#doc.background[runId] = { ...stored, poll: { pollId, leaseUntil: this.#now() + leaseMs } };
    this.#changed();
  }

  async prune(windows: RetentionWindows): Promise<void> {
    const now = this.#now();
    // Pruning runs on every sweep (and on every request of the mock): write only when it removed something.
    let changed = false;
    for (const run of Object.values(this.#doc.background)) {
      if (!isBackgroundEnded(run) || run.updatedAt + windows.idempotencyWindowMs > now) continue;
      delete this.#doc.background[run.runId];
      for (const token of Object.keys(run.tokens)) delete this.#doc.backgroundTokens[token];
      changed = true;
    }
    for (const run of Object.values(this.#doc.runs)) {
      if (run.terminal === null) continue;
      if (run.updatedAt + windows.idempotencyWindowMs <= now) {
        this.#dropRun(run.runId);
        this.#bounds.deleted(run.runId);
        changed = true;
      } else if (!run.expired && run.updatedAt + windows.eventLogRetentionMs <= now) {
        this.#dropLog(run.runId);
        this.#bounds.expired(run.runId);
        changed = true;
      }
    }
    for (const record of Object.values(this.#doc.idempotency)) {
      if (record.createdAt + windows.idempotencyWindowMs > now) continue;
      delete this.#doc.idempotency[record.key];
      changed = true;
    }
    for (const [key, outcome] of Object.entries(this.#doc.outcomes)) {
      if (outcome.at + windows.idempotencyWindowMs > now) continue;
      delete this.#doc.outcomes[key];
      changed = true;
    }
    if (changed) this.#changed();
  }

  async close(): Promise<void> {
    this.#watchers.clear();
  }

  #appendFrames(run: RunRecord, events: readonly AgUiEvent[]): StoredFrame[] {
    const log = this.#doc.frames[run.runId] ?? [];
    this.#doc.frames[run.runId] = log;
    const frames = events.map((event, index) => {
      const seq = run.lastSeq + 1 + index;
      const frame: StoredFrame = { seq, event: stampCursor(event, run.runId, seq) };
      log.push(frame);
      this.#bounds.wrote(run.runId, run.threadId, sizeOf(frame.event), isTerminalEvent(event));
      return frame;
    });
    const last = frames.at(-1);
    if (last === undefined) return frames;
    this.#doc.runs[run.runId] = {
      ...run,
      lastSeq: last.seq,
      updatedAt: this.#now(),
      terminal: isTerminalEvent(last.event) ? last.event : null,
    };
    // Readers are woken after the current step, as a database's notification arrives after its commit.
    const watchers = this.#watchers.get(run.runId);
    if (watchers !== undefined)
      queueMicrotask(() => {
        for (const wake of watchers) wake();
      });
    return frames;
  }

  /** Applies the caps: the oldest finished runs lose their log, then their record (never a running one). */
  #evict(): void {
    for (const { kind, runId } of this.#bounds.evictions()) {
      if (kind === "delete") this.#dropRun(runId);
      else this.#dropLog(runId);
    }
  }

  #dropRun(runId: string): void {
    delete this.#doc.runs[runId];
    delete this.#doc.frames[runId];
  }

  /** The record stays, marked expired: a re-attach gets 410 and the client hydrates. */
  #dropLog(runId: string): void {
    const run = this.#doc.runs[runId];
    if (run === undefined) return;
    this.#doc.runs[runId] = { ...run, expired: true };
    this.#doc.frames[runId] = [];
  }

  #settle(run: RunRecord, settle: Settlement, terminal: StoredFrame): void {
    const claimed = Object.values(this.#doc.occurrences).filter((row) => row.claim?.runId === run.runId);
    if (settle.kind === "rollback") {
      for (const row of claimed) this.#put({ ...row, ...releasedState({ ...row, outcome: null }) });
      return;
    }
    const events = (this.#doc.frames[run.runId] ?? [])
      .filter((frame) => frame.seq > settle.afterSeq && frame.seq <= terminal.seq)
      .map((frame) => frame.event);
    this.#doc.outcomes[settle.key] = {
      key: settle.key,
      runId: run.runId,
      threadId: run.threadId,
      events,
      at: this.#now(),
    };
    for (const final of settle.finals) {
      const row = this.#doc.occurrences[refKey(final.ref)];
      if (row === undefined || row.claim?.runId !== run.runId) continue;
      this.#put({ ...row, state: final.state, claim: null, outcomeKey: settle.key });
    }
  }

  #putBackground(record: BackgroundRunRecord): void {
    this.#doc.background[record.runId] = record;
    const tokens = this.#doc.backgroundTokens;
    for (const token of Object.keys(record.tokens)) tokens[token] = record.runId;
    this.#changed();
  }

  #put(row: OccurrenceRow): void {
    this.#doc.occurrences[refKey(row)] = { ...row, version: row.version + 1 };
  }

  #withOutcome(row: OccurrenceRow): Occurrence {
    const { outcomeKey, ...rest } = row;
    return { ...rest, outcome: outcomeKey === null ? null : (this.#doc.outcomes[outcomeKey] ?? null) };
  }

  #changed(): void {
    this.#onChange(this.#doc);
  }
}
