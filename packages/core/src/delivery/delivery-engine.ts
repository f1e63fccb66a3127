import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import { reduceEntry } from "../outbox/reducer";
import { isPrunable } from "../outbox/retention";
import { backoffDelay } from "../retry/backoff";
import type { BatchDelivery } from "./batch-delivery";
import type { DeliveryDeps, DeliveryEngineOptions } from "./delivery-options";
import type { DeliveryRun } from "./delivery-run";
import type { DeliveryTransport } from "./delivery-transport";
import { EntryBook } from "./entry-book";
import { KeyTimers } from "./key-timers";
import { loadSender, type SenderModule } from "./load-sender";

/*
 * One entry's delivery, from its current state to a verdict:
 *
 *   queued / retry_wait (due) ──send──▶ POST /agent (same key, runId, body)
 *        ▲                               │
 *        │ wait(at): retry_wait,         ├─ HTTP error ─────────────▶ signal
 *        │  timer (backoff, Retry-After) └─ 200 event stream ──▶ pump ─▶ signal
 *        │                                      RUN_STARTED + ack ─▶ claim-acked (cursor persisted)
 *   deliveryStep(entry, signal) ◀───────────────┘
 *     ├─ settle ─▶ applied / elsewhere / lost / needs_user / paused, persisted
 *     ├─ wait(at) ─▶ retry_wait with nextAttemptAt, timer
 *     ├─ reattach ─▶ GET /runs/{runId}/events, Last-Event-ID ─▶ pump ─▶ signal
 *     ├─ status ─▶ GET /runs/{runId}: terminal ─▶ its signal; gone ─▶ hydrate
 *     └─ hydrate ─▶ POST hydration ─▶ tool result seen? ─▶ signal
 *
 * The decisions are data (`deliveryStep` is pure); this class performs them.
 * Every transition is one reducer step and one durable write, never inside a
 * fetch: the store is written, then the network is used.
 *
 * The engine keeps the namespace's entries in every tab; what sends (the
 * transport, the batches, the run, and the verdict rules behind them) is a chunk
 * loaded on `activate`, in the tab that sends (load-sender.ts). Nothing is sent
 * before it is there, so no server's answer ever waits for a download.
 */

/**
 * What the engine is given: each delivery's options, and the loader of the
 * sending chunk (`OutboxDeps.loadSender`). The loader names the chunk's type, so
 * it is the engine's alone: the chunk's files read `DeliveryEngineOptions`.
 */
export interface DeliveryEngineInit extends DeliveryEngineOptions {
  readonly deps: DeliveryDeps & { readonly loadSender: () => Promise<SenderModule> };
}

/** A wall clock behind a finished timer by more than this has jumped. */
const CLOCK_SLACK_MS = 1_000;

/** The parts that send, built once the sending code is loaded. */
interface Sender {
  readonly transport: DeliveryTransport;
  readonly batches: BatchDelivery;
  readonly runner: DeliveryRun;
}

export class DeliveryEngine {
  readonly #options: DeliveryEngineInit;
  readonly #book: EntryBook;
  /** Built by the first `activate`, in the tab that sends. */
  #sender: Sender | undefined;
  readonly #running = new Set<string>();
  /** Keys whose schedule was asked for while they were running: looked at again when the run ends. */
  readonly #rescheduleAfterRun = new Set<string>();
  readonly #timers: KeyTimers;
  /**
   * Entries found in flight by `activate` (the page that sent them is gone):
   * their `recovered-on-start` step is written together with the next step.
   */
  readonly #recovering = new Set<string>();
  /** Per key, storage failures in a row: the backoff before the next try (storage cannot hold it while failing). */
  readonly #storageFailures = new Map<string, number>();
  /** Keys whose wait a timer saw through (real time), whatever the wall clock says. */
  readonly #waited = new Set<string>();
  /**
   * Entries whose `sending` the start's one transaction wrote: each one's
   * delivery POSTs at once, without a write of its own.
   */
  readonly #startedByRead = new Set<string>();
  /** The entry a start read wrote, until `activate` takes it (or delivery stops first). */
  #heldStarted: OutboxEntry | undefined;
  /** Never-sent entries waiting for the server kind to be known. */
  readonly #waitingForKind = new Set<string>();
  #abort = new AbortController();
  #active = false;
  /** Counts `deactivate`s: an activation that waited for the sending code across one stands down. */
  #stops = 0;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  #serverRetryMs: number | undefined;

  constructor(options: DeliveryEngineInit) {
    this.#options = options;
    this.#timers = new KeyTimers(options.deps.timers);
    this.#book = new EntryBook({
      namespace: options.namespace,
      store: options.store,
      publish: options.publish,
      onCommitted: (entry) => this.#committed(entry),
    });
  }

  #createSender(module: SenderModule): Sender {
    const options = this.#options;
    const transport = new module.DeliveryTransport({
      book: this.#book,
      http: options.http,
      threads: options.threads,
      deps: options.deps,
      serverKind: options.serverKind,
      hydrate: options.hydrate,
      stallTimeoutMs: options.stallTimeoutMs,
      maxEventBytes: options.maxEventBytes,
      abortSignal: () => this.#abort.signal,
      active: () => this.#active,
      onContradiction: (reason) => this.#options.onKindContradicted?.(reason),
      onServerRetry: (ms) => {
        this.#serverRetryMs = ms;
      },
    });
    const batches = new module.BatchDelivery(this.#book, transport);
    const runner = new module.DeliveryRun({
      options,
      book: this.#book,
      transport,
      batches,
      active: () => this.#active,
      abortSignal: () => this.#abort.signal,
      serverRetryMs: () => this.#serverRetryMs,
      schedule: (key) => this.schedule(key),
      sends: (entry) => this.#sends(entry),
      waitBeforeAttempt: (entry) => this.#waitBeforeAttempt(entry),
      waitForKind: (key) => this.#waitingForKind.add(key),
    });
    return { transport, batches, runner };
  }

  /** The namespace's entries, oldest first. A snapshot: later changes make a new array. */
  entries(): readonly OutboxEntry[] {
    return this.#book.sorted();
  }

  /** (Re)reads the namespace's entries from storage; does not send. */
  load(): Promise<void> {
    this.#heldStarted = undefined;
    return this.#book.load();
  }

  /**
   * Holds the entries a start read returned (the load without its read), and
   * the entry whose `sending` that read wrote: `activate` hands it straight to
   * fetch. Does not send.
   */
  hold(entries: readonly OutboxEntry[], started?: OutboxEntry): void {
    this.#book.hold(entries);
    this.#heldStarted = started;
  }

  /** Adds the settled entries, read after the start so they never delay it. Does not send. */
  holdSettled(entries: readonly OutboxEntry[]): void {
    this.#book.holdMore(entries);
  }

  /**
   * Adopts an entry written elsewhere (this tab's `answer()`, or another tab).
   * It is published at once; with `sendAfterThisTask` its delivery starts in a
   * later task, so the code that just wrote it goes on first.
   */
  adopt(entry: OutboxEntry, options: { readonly sendAfterThisTask?: boolean } = {}): void {
    if (entry.namespace !== this.#options.namespace) return;
    // Copies of one entry are ordered by the revision the store gave them, never by clocks.
    if (!this.#book.mirror(entry)) return;
    if (!this.#active) return;
    if (options.sendAfterThisTask) this.#wakeAfter(entry.key, 0);
    else this.schedule(entry.key);
    // Another tab answered a question of a batch: the sending tab seals it (the
    // answering tab, if it is not the sender, may not write delivery state).
    const adopted = this.#book.get(entry.key);
    if (!options.sendAfterThisTask && adopted?.state === EntryState.held)
      this.#track(this.sealBatch(adopted));
  }

  forget(key: string): void {
    this.#timers.cancel(key);
    this.#book.delete(key);
  }

  /**
   * Starts sending: entries that were sending or streaming when the page died
   * continue with the same key and body; due retries go now; later ones wait.
   * Loads the sending code first: rejects (`sender_unavailable`) when it cannot
   * be fetched, and stays inactive, its entries untouched, until called again.
   */
  async activate(): Promise<void> {
    if (this.#active) return;
    if (!this.#sender) {
      const stops = this.#stops;
      const module = await loadSender(this.#options.deps.loadSender);
      // Stopped (or activated by another call) while the code loaded.
      if (this.#active || stops !== this.#stops) return;
      this.#sender ??= this.#createSender(module);
    }
    this.#active = true;
    this.#book.setWritable(true);
    this.#abort = new AbortController();
    const at = this.#options.deps.now();
    const started = this.#heldStarted;
    this.#heldStarted = undefined;
    for (const entry of this.entries()) {
      // Its attempt is written (by the start read) and nothing replaced it since: it goes as it is.
      if (entry === started) {
        this.#startedByRead.add(entry.key);
        this.schedule(entry.key);
        continue;
      }
      // Not written on its own: the delivery writes it with its first step (the
      // resend's `sending`), so a recovered answer costs one write before it goes.
      if (reduceEntry(entry, { type: "recovered-on-start", at }) !== entry) this.#recovering.add(entry.key);
      this.schedule(entry.key);
      // A batch whose answers are all in, but whose seal a reload cut short (or
      // two tabs answered at once): sealed now.
      if (entry.state === EntryState.held) this.#track(this.sealBatch(entry));
    }
    // Retention never stands in the way of sending.
    await this.prune().catch((error: unknown) => this.#options.onError?.(error));
  }

  /** Stops sending (this tab lost leadership or the client is disposed). State stays durable. */
  deactivate(): void {
    this.#active = false;
    this.#stops += 1;
    // A write queued before this point must not land after a new leader's.
    this.#book.setWritable(false);
    this.#recovering.clear();
    // A start read's attempt not yet handed to fetch is resent through recovery, as after a reload.
    this.#startedByRead.clear();
    this.#heldStarted = undefined;
    this.#sender?.transport.reset();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    this.#timers.cancelAll();
  }

  /**
   * The browser came back online or visible: entries that wait only because the
   * network failed go now, and stalled ones resume with a fresh budget. Entries
   * waiting on a server's `Retry-After` (or any other server answer) keep their
   * time: a hint never overrides the server.
   */
  retryNetworkWaitsNow(): void {
    for (const entry of this.#book.values()) {
      const networkWait = entry.state === EntryState.retryWait && entry.lastError?.kind === ErrorKind.network;
      if (networkWait || (entry.state === EntryState.stalled && !entry.batch?.sendsWith)) {
        this.#track(this.retryNow(entry.key));
      }
    }
  }

  /** A thread was read again: answers held in it whose question was closed elsewhere settle. */
  async settleClosed(threadId: string): Promise<void> {
    if (this.#active && this.#sender) await this.#sender.runner.settleClosed(threadId);
  }

  /** Skips a backoff, or resumes a stalled entry; an answer sent in another's request retries that one. */
  async retryNow(key: string): Promise<void> {
    const sender = this.#book.get(key)?.batch?.sendsWith ?? key;
    await this.#book.commit(sender, { type: "retry-now", at: this.#options.deps.now() });
    this.schedule(sender);
  }

  /** The server kind became known (or known again): never-sent entries that waited for it go. */
  kindChanged(): void {
    for (const key of [...this.#waitingForKind]) {
      this.#waitingForKind.delete(key);
      this.schedule(key);
    }
  }

  /**
   * Every question of `entry`'s run answered? Then the held answers are queued
   * together: `entry` (the last answered) sends for all, under its key, one body
   * with every answer, built now when the server kind is known. Returns `entry`
   * as it is now.
   */
  async sealBatch(entry: OutboxEntry): Promise<OutboxEntry> {
    // Only the sending tab seals; it does when it adopts the answer, or on activation.
    if (!this.#active) return entry;
    const kind = this.#options.kindKnown() ? this.#options.serverKind() : undefined;
    if (!this.#sender) return entry;
    const sealed = await this.#sender.batches.seal(entry, kind, this.#options.deps.now());
    // The sender may be another answer of the batch: it is the one that goes.
    if (sealed && sealed !== entry && this.#active) this.#wakeAfter(sealed.batch?.sendsWith ?? sealed.key, 0);
    return sealed ?? entry;
  }

  async resumeAfterAuth(): Promise<void> {
    for (const entry of this.entries()) {
      if (entry.state !== EntryState.paused) continue;
      await this.#book.commit(entry.key, { type: "resumed-auth", at: this.#options.deps.now() });
      this.schedule(entry.key);
    }
  }

  schedule(key: string): void {
    if (!this.#active) return;
    if (this.#running.has(key)) {
      this.#rescheduleAfterRun.add(key);
      return;
    }
    const entry = this.#book.get(key);
    if (!entry || !this.#sends(entry)) return;
    this.#timers.cancel(key);
    const wait = this.#waitBeforeAttempt(entry);
    if (wait > 0) {
      // The timer only asks again: timers may fire a little early, and the
      // reducer refuses an attempt before `nextAttemptAt`.
      this.#wakeAfter(key, wait);
      return;
    }
    this.#track(this.#run(key));
  }

  /** Whether this entry's own delivery has something to do now. */
  #sends(entry: OutboxEntry): boolean {
    if (isFinalState(entry.state) || entry.batch?.sendsWith !== undefined) return false;
    return (
      entry.state !== EntryState.paused &&
      entry.state !== EntryState.held &&
      entry.state !== EntryState.stalled
    );
  }

  /** After a durable write: storage works again for it, and the answers it sends for follow it. */
  #committed(entry: OutboxEntry): void {
    this.#storageFailures.delete(entry.key);
    for (const follower of this.#book.behind(entry)) {
      this.#track(
        this.#book.commit(follower.key, { type: "follow", leader: entry, at: this.#options.deps.now() }),
      );
    }
  }

  /**
   * Storage refused a write of this delivery: shown on the entry without a
   * write, and tried again after a full-jitter backoff that grows while the
   * failures go on (capped at 30 s), so a broken store is never hammered.
   */
  #afterStorageFailure(key: string, error: unknown): void {
    const failures = (this.#storageFailures.get(key) ?? 0) + 1;
    this.#storageFailures.set(key, failures);
    const entry = this.#book.get(key);
    if (!entry || isFinalState(entry.state)) return;
    this.#book.set({
      ...entry,
      lastError: {
        kind: isOutboxError(error) ? error.kind : ErrorKind.storageFailed,
        message: error instanceof Error ? error.message : "A storage operation failed.",
      },
    });
    this.#wakeAfter(key, backoffDelay(failures - 1, { random: this.#options.deps.random }));
  }

  /** A promise nobody awaits: its failure goes to the error sink, never unhandled. */
  #track(promise: Promise<unknown>): void {
    promise.catch((error: unknown) => this.#options.onError?.(error));
  }

  /** Schedules `key` again in `ms`, replacing any timer it had; `deactivate` cancels it. */
  #wakeAfter(key: string, ms: number): void {
    this.#timers.set(key, ms, () => {
      this.#waited.add(key);
      this.schedule(key);
    });
  }

  /**
   * How long the entry still waits. Timers measure real time; `nextAttemptAt` is
   * wall-clock time, which can jump (a clock corrected between page loads, or
   * under a running page). A wait never lasts longer than it was planned for
   * (`nextAttemptAt - updatedAt`), and once a timer waited it through, a wall
   * clock that lags by more than a second does not hold the answer further.
   */
  #waitBeforeAttempt(entry: OutboxEntry): number {
    if (entry.state !== EntryState.retryWait || entry.nextAttemptAt === null) return 0;
    const left = entry.nextAttemptAt - this.#options.deps.now();
    if (this.#waited.has(entry.key) && left > CLOCK_SLACK_MS) return 0;
    return Math.min(left, Math.max(0, entry.nextAttemptAt - entry.updatedAt));
  }

  async #run(key: string): Promise<void> {
    const sender = this.#sender;
    if (this.#running.has(key) || !this.#active || !sender) return;
    this.#running.add(key);
    try {
      await sender.runner.deliver(key, this.#recovering.delete(key), this.#startedByRead.delete(key));
      this.#waited.delete(key);
    } catch (error) {
      // A storage failure mid-delivery: the entry stays as last written, the
      // failure is shown on it (in memory: storage is what fails) and reported,
      // and the delivery tries again after a full-jitter backoff.
      if (!(isOutboxError(error) && error.kind === ErrorKind.disposed)) {
        this.#options.onError?.(error);
        this.#afterStorageFailure(key, error);
      }
    } finally {
      this.#running.delete(key);
      if (this.#rescheduleAfterRun.delete(key)) this.schedule(key);
    }
  }

  /** Waits until every write queued so far has settled (before `clear` wipes storage). */
  drain(): Promise<void> {
    return this.#book.drain();
  }

  /**
   * Reads storage again and schedules what it holds: answers a follower wrote
   * while its message was lost, entries another tab changed. Cheap enough for a
   * slow periodic tick; the leader also runs it when a tab says hello and when
   * the page becomes visible.
   */
  async rescan(): Promise<void> {
    await this.load();
    if (!this.#active) return;
    for (const entry of this.entries()) this.schedule(entry.key);
    await this.prune();
  }

  /**
   * Retention: entries settled (applied, elsewhere, expired) longer ago than the
   * window are deleted, here and in every tab (the removal is announced).
   * Never one without a verdict; `lost` and `needs_user` wait for `discard`.
   */
  async prune(): Promise<void> {
    if (!this.#active) return;
    const now = this.#options.deps.now();
    for (const entry of this.entries()) {
      if (!isPrunable(entry, now, this.#options.finalRetentionMs)) continue;
      await this.#options.store.delete(entry.key);
      this.forget(entry.key);
    }
  }
}
