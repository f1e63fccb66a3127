import type { ReadonlyStore } from "@agui-outbox/core";
import { ErrorKind, OutboxError } from "@agui-outbox/core";
import { withChildSignal } from "@agui-outbox/core/internal";
import { BackgroundEvents } from "./background-events";
import { BackgroundHttp } from "./background-http";
import { BackgroundPoll } from "./background-poll";
import { BackgroundRecovery } from "./background-recovery";
import { BackgroundRunLedger } from "./background-run-ledger";
import type { BackgroundRunRecord } from "./background-run-record";
import { BackgroundRunStore } from "./background-run-store";
import {
  type BackgroundRunsOptions,
  type BackgroundRunsState,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
  type StartBackgroundRunInput,
} from "./background-runs-options";
import { BackgroundScheduler } from "./background-scheduler";
import { BackgroundStart } from "./background-start";
import { BackgroundVerdict, isFinalBackgroundVerdict } from "./background-verdict";

export {
  type BackgroundDeps,
  type BackgroundRunsOptions,
  type BackgroundRunsState,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
  type StartBackgroundRunInput,
} from "./background-runs-options";

/*
 * One loop per run, only while this tab is active (the sending tab):
 *
 *   start ─▶ record persisted `starting` (key, body) ─POST 202 (Idempotency-Key)─▶ events applied ─┐
 *              └─ 5xx / 429 / network ─▶ starting, retried with the same key and bytes   │
 *                                                                                          ▼
 *   ┌──────────── wait until nextPollAt (interval, backoff, Retry-After) ◀── polling / retry_wait
 *   │             interrupted: the wait doubles up to the backoff cap; the question answered ends it
 *   ▼
 *   POST poll {held token}
 *     ├─ 200 ─▶ apply events past the cursor (fill gaps by re-attach) ─▶ persist token+cursor+status
 *     │          ├─ in progress / interrupted ─▶ polling   ├─ completed ─▶ completed
 *     │          └─ failed ─▶ classify RUN_ERROR code ─▶ lost | needs_user
 *     ├─ 5xx / 429 / 409 IN_PROGRESS / network ─▶ retry_wait, same token (planRetry ≥ Retry-After)
 *     ├─ 409 STALE / 404 UNKNOWN ─▶ GET /runs/{runId}
 *     │          ├─ newer token ─▶ adopt it ─▶ polling
 *     │          ├─ terminal ─▶ catch up on events ─▶ completed | lost | needs_user
 *     │          └─ 404 / 410 ─▶ hydrate the thread ─▶ needs_user
 *     ├─ 401 / 403 ─▶ paused until resumeAfterAuth()
 *     └─ anything else ─▶ needs_user, raw code kept
 *
 * Every transition is one pure reducer step and one durable write, made after
 * the network call it depends on, never during it. Where each part lives:
 * start (background-start), the wait (background-scheduler), the poll
 * (background-poll), GET /runs (background-recovery), writes (background-run-ledger).
 */

/**
 * Starts background runs and keeps polling them, across reloads, with the
 * continuation token the server last handed out: never starting over, never
 * re-running a tool. See the diagram above for the verdicts.
 */
export class BackgroundRuns {
  /** Read-only store of every run of the namespace. */
  readonly runs: ReadonlyStore<BackgroundRunsState>;
  readonly #store: BackgroundRunStore;
  readonly #ledger: BackgroundRunLedger;
  readonly #events: BackgroundEvents;
  readonly #start: BackgroundStart;
  readonly #scheduler: BackgroundScheduler;
  /** Aborted by `dispose()`: `start()` requests stop, and nothing starts again. */
  readonly #lifetime = new AbortController();

  constructor(options: BackgroundRunsOptions) {
    const { deps, retry } = options;
    const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_BACKGROUND_POLL_INTERVAL_MS;
    this.#store = new BackgroundRunStore(options.store, options.namespace);
    const ledger = new BackgroundRunLedger(this.#store, deps.now, {
      ...retry,
      backoff: { ...retry?.backoff, random: deps.random },
    });
    this.#ledger = ledger;
    this.runs = ledger.runs;
    const wire = new BackgroundHttp({ ...options, fetch: deps.fetch });
    const events = new BackgroundEvents({ ...options, ledger });
    this.#events = events;
    const lifetime = this.#lifetime.signal;
    const start = new BackgroundStart({ ...options, ledger, wire, events, pollIntervalMs, lifetime });
    this.#start = start;
    const recovery = new BackgroundRecovery({ ...options, ledger, events });
    const poll = new BackgroundPoll({ ledger, wire, events, start, recovery, pollIntervalMs });
    this.#scheduler = new BackgroundScheduler({ ...options, ledger, poll });
  }

  get active(): boolean {
    return this.#scheduler.active;
  }

  /** One run's record, if this instance knows it. */
  get(runId: string): BackgroundRunRecord | undefined {
    return this.#ledger.get(runId);
  }

  /**
   * Sends the person's message as a background run. The run is written ahead
   * (`starting`, with its `Idempotency-Key` and exact body) before the start
   * request goes out, so a reload in between finishes starting it instead of
   * leaving a server run nobody polls. Resolves with the record once the
   * server answered, or, when the start failed for a passing reason (network,
   * 5xx, 429), with the `starting` record that is sent again with the same key
   * once this instance is active. Rejects with an `OutboxError` when the server
   * refused the run for good (nothing is kept then).
   */
  async start(input: StartBackgroundRunInput): Promise<BackgroundRunRecord> {
    this.#throwIfDisposed();
    const starting = await this.#start.writeAhead(input);
    const sending = withChildSignal(this.#lifetime.signal, (signal) =>
      this.#start.send(starting, signal, true),
    );
    return this.#scheduler.whileStarting(starting.runId, sending);
  }

  /**
   * Resolves once nothing this instance started is still going to write: the
   * loops (deactivate first) and the starts in flight. `clear` waits for it
   * before it wipes, so no record comes back after a sign-out.
   */
  drain(): Promise<void> {
    return this.#scheduler.drain();
  }

  /**
   * Loads every record of the namespace (after a reload, or to pick up runs
   * another tab started) and, when active, polls each unfinished one on with
   * its persisted token and cursor. Idempotent.
   */
  async resumeAll(): Promise<readonly BackgroundRunRecord[]> {
    this.#throwIfDisposed();
    // Runs known before the read and gone from storage after it were deleted (a sign-out
    // in another tab, a discard): forgotten, or a takeover would poll them and write them
    // back. A run written ahead while the read was under way is not in `knownBefore`.
    const knownBefore = this.#ledger.all();
    const stored = await this.#store.loadAll();
    const storedIds = new Set(stored.map((record) => record.runId));
    const gone = knownBefore
      .map((record) => record.runId)
      .filter((runId) => !storedIds.has(runId) && !this.#scheduler.isStarting(runId));
    const runs = new Map(this.#ledger.all().map((record) => [record.runId, record]));
    for (const runId of gone) runs.delete(runId);
    for (const record of stored) {
      const known = runs.get(record.runId);
      if (known && known.updatedAt >= record.updatedAt) continue;
      runs.set(record.runId, record);
      // Events up to the stored cursor were applied by whoever stored it.
      this.#events.catchUpTo(record.runId, record.lastSeq);
    }
    this.#ledger.show([...runs.values()]);
    for (const runId of gone) {
      this.#events.forget(runId);
      this.#scheduler.wake(runId);
    }
    for (const record of stored) this.#scheduler.ensureLoop(record.runId);
    return this.#ledger.all();
  }

  /** Starts polling (this tab became the sending tab). */
  activate(): void {
    if (!this.#lifetime.signal.aborted) this.#scheduler.activate();
  }

  /** Stops polling; an in-flight poll is aborted (its token stays current on the server). */
  deactivate(): void {
    this.#scheduler.deactivate();
  }

  /** Stops everything. Records stay durable; the store is not closed. */
  dispose(): void {
    this.deactivate();
    this.#lifetime.abort(new OutboxError(ErrorKind.disposed, "The client was disposed."));
  }

  /**
   * Polls a run now: skips a backoff, or tries again after `needs_user` or
   * `paused` with the held token (never for `completed` or `lost`).
   */
  retryNow(runId: string): Promise<void> {
    return this.#scheduler.retryNow(runId);
  }

  /** After the app re-authenticated: paused runs poll again. */
  async resumeAfterAuth(): Promise<void> {
    for (const record of this.#ledger.all()) {
      if (record.verdict === BackgroundVerdict.paused) await this.retryNow(record.runId);
    }
  }

  /** Forgets a run with a final verdict; refuses one without (never delete before a final verdict). */
  async discard(runId: string): Promise<void> {
    const record = this.#ledger.get(runId);
    if (record && !isFinalBackgroundVerdict(record.verdict)) {
      throw new OutboxError(
        ErrorKind.storageFailed,
        `discard refused: background run ${runId} is "${record.verdict}", which is not final`,
      );
    }
    await this.#ledger.remove(runId);
    this.#events.forget(runId);
  }

  /** Forgets what is in memory and reloads from the store (after `clear(namespace)`). */
  async reset(): Promise<void> {
    const wasActive = this.#scheduler.active;
    this.deactivate();
    this.#ledger.show([]);
    this.#events.clear();
    await this.resumeAll();
    if (wasActive) this.activate();
  }

  #throwIfDisposed(): void {
    if (this.#lifetime.signal.aborted) {
      throw new OutboxError(ErrorKind.disposed, "The background runner was disposed.");
    }
  }
}
