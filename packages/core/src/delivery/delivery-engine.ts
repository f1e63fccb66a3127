import type { OutboxDeps } from "../client/deps";
import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import { reduceEntry } from "../outbox/reducer";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { AgentHttp } from "../transport/agent-http";
import { type DeliveryCounters, type DeliveryDecision, deliveryStep, retryStep } from "./delivery-step";
import { DeliveryTransport } from "./delivery-transport";
import { EntryBook } from "./entry-book";

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
 */

export interface DeliveryEngineOptions {
  readonly namespace: string;
  readonly store: OutboxStore;
  readonly http: AgentHttp;
  readonly threads: ThreadRegistry;
  readonly deps: OutboxDeps;
  readonly serverKind: () => ServerKind;
  /** Hydrates a thread from the server (shared with the thread handles). */
  readonly hydrate: (threadId: string) => Promise<void>;
  /**
   * Called after every committed change with the namespace's entries (oldest
   * first) and the key the change touched, with its new entry (`undefined` once
   * it is gone). No key: every entry may have changed (a read of storage).
   */
  readonly publish: (entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry) => void;
  readonly onPaused: (entry: OutboxEntry) => void;
  /** Where failures the delivery survives are reported (the client's error sink). */
  readonly onError?: (error: unknown) => void;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  readonly retry: PlanRetryOptions;
  /** Re-attaches in a row without a new event before falling back to a resend. */
  readonly maxReattachesWithoutProgress: number;
}

const STORAGE_RETRY_REASON = "Saving delivery progress failed; trying again.";

export class DeliveryEngine {
  readonly #options: DeliveryEngineOptions;
  readonly #book: EntryBook;
  readonly #transport: DeliveryTransport;
  readonly #running = new Set<string>();
  /** Keys whose schedule was asked for while they were running: looked at again when the run ends. */
  readonly #rescheduleAfterRun = new Set<string>();
  readonly #timers = new Map<string, unknown>();
  /**
   * Entries found in flight by `activate` (the page that sent them is gone):
   * their `recovered-on-start` step is written together with the next step.
   */
  readonly #recovering = new Set<string>();
  #abort = new AbortController();
  #active = false;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  #serverRetryMs: number | undefined;

  constructor(options: DeliveryEngineOptions) {
    this.#options = options;
    this.#book = new EntryBook({
      namespace: options.namespace,
      store: options.store,
      publish: options.publish,
    });
    this.#transport = new DeliveryTransport({
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
      onServerRetry: (ms) => {
        this.#serverRetryMs = ms;
      },
    });
  }

  /** The namespace's entries, oldest first. A snapshot: later changes make a new array. */
  entries(): readonly OutboxEntry[] {
    return this.#book.sorted();
  }

  /** (Re)reads the namespace's entries from storage; does not send. */
  load(): Promise<void> {
    return this.#book.load();
  }

  /**
   * Adopts an entry written elsewhere (this tab's `answer()`, or another tab).
   * It is published at once; with `sendAfterThisTask` its delivery starts in a
   * later task, so the code that just wrote it goes on first.
   */
  adopt(entry: OutboxEntry, options: { readonly sendAfterThisTask?: boolean } = {}): void {
    if (entry.namespace !== this.#options.namespace) return;
    const known = this.#book.get(entry.key);
    if (known && known.updatedAt > entry.updatedAt) return;
    this.#book.set(entry);
    if (!this.#active) return;
    if (options.sendAfterThisTask) this.#wakeAfter(entry.key, 0);
    else this.schedule(entry.key);
  }

  forget(key: string): void {
    this.#cancelTimer(key);
    this.#book.delete(key);
  }

  /**
   * Starts sending: entries that were sending or streaming when the page died
   * continue with the same key and body; due retries go now; later ones wait.
   */
  async activate(): Promise<void> {
    if (this.#active) return;
    this.#active = true;
    this.#abort = new AbortController();
    const at = this.#options.deps.now();
    for (const entry of this.entries()) {
      // Not written on its own: the delivery writes it with its first step (the
      // resend's `sending`), so a recovered answer costs one write before it goes.
      if (reduceEntry(entry, { type: "recovered-on-start", at }) !== entry) this.#recovering.add(entry.key);
      this.schedule(entry.key);
    }
  }

  /** Stops sending (this tab lost leadership or the client is disposed). State stays durable. */
  deactivate(): void {
    this.#active = false;
    this.#recovering.clear();
    this.#transport.reset();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    for (const key of [...this.#timers.keys()]) this.#cancelTimer(key);
  }

  /**
   * The browser came back online or visible: entries that wait only because the
   * network failed go now. Entries waiting on a server's `Retry-After` (or any
   * other server answer) keep their time: a hint never overrides the server.
   */
  retryNetworkWaitsNow(): void {
    for (const entry of this.#book.values()) {
      if (entry.state === EntryState.retryWait && entry.lastError?.kind === ErrorKind.network) {
        this.#track(this.retryNow(entry.key));
      }
    }
  }

  async retryNow(key: string): Promise<void> {
    await this.#book.commit(key, { type: "retry-now", at: this.#options.deps.now() });
    this.schedule(key);
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
    if (!entry || isFinalState(entry.state) || entry.state === EntryState.paused) return;
    this.#cancelTimer(key);
    const wait = this.#waitBeforeAttempt(entry);
    if (wait > 0) {
      // The timer only asks again: timers may fire a little early, and the
      // reducer refuses an attempt before `nextAttemptAt`.
      this.#wakeAfter(key, wait);
      return;
    }
    this.#track(this.#run(key));
  }

  /** A promise nobody awaits: its failure goes to the error sink, never unhandled. */
  #track(promise: Promise<unknown>): void {
    promise.catch((error: unknown) => this.#options.onError?.(error));
  }

  /** Schedules `key` again in `ms`, replacing any timer it had; `deactivate` cancels it. */
  #wakeAfter(key: string, ms: number): void {
    this.#cancelTimer(key);
    const handle = this.#options.deps.timers.setTimeout(() => {
      this.#timers.delete(key);
      this.schedule(key);
    }, ms);
    this.#timers.set(key, handle);
  }

  #waitBeforeAttempt(entry: OutboxEntry): number {
    if (entry.state !== EntryState.retryWait || entry.nextAttemptAt === null) return 0;
    return entry.nextAttemptAt - this.#options.deps.now();
  }

  #cancelTimer(key: string): void {
    const handle = this.#timers.get(key);
    if (handle === undefined) return;
    this.#options.deps.timers.clearTimeout(handle);
    this.#timers.delete(key);
  }

  async #run(key: string): Promise<void> {
    if (this.#running.has(key) || !this.#active) return;
    this.#running.add(key);
    try {
      await this.#deliver(key);
    } catch (error) {
      // A storage failure mid-delivery: the entry stays as last written and is
      // retried on the next start or schedule; nothing is dropped.
      if (!(isOutboxError(error) && error.kind === ErrorKind.disposed)) {
        this.#options.onError?.(error);
        const entry = this.#book.get(key);
        if (entry && !isFinalState(entry.state)) this.#scheduleRetry(key);
      }
    } finally {
      this.#running.delete(key);
      if (this.#rescheduleAfterRun.delete(key)) this.schedule(key);
    }
  }

  async #deliver(key: string): Promise<void> {
    const recovering = this.#recovering.delete(key);
    const initial = this.#book.get(key);
    if (!initial || isFinalState(initial.state) || initial.state === EntryState.paused) return;
    if (initial.everSent && this.#options.deps.now() >= initial.expiresAt) {
      if (recovering)
        await this.#book.commit(key, { type: "recovered-on-start", at: this.#options.deps.now() });
      await this.#reconcile(key);
      return;
    }
    if (this.#waitBeforeAttempt(initial) > 0) {
      this.schedule(key);
      return;
    }
    const first =
      initial.state === EntryState.streaming && initial.cursor.acked
        ? await this.#transport.reattach(key)
        : await this.#transport.send(key, recovering);
    if (!first) return;
    let signal: DeliverySignal = first;
    let counters: DeliveryCounters = { reattachesWithoutProgress: 0, budgetSpent: false };
    for (;;) {
      if (!this.#active) return;
      const entry = this.#book.get(key);
      if (!entry) return;
      const step = deliveryStep(entry, signal, {
        serverKind: this.#options.serverKind(),
        now: this.#options.deps.now(),
        retry: this.#options.retry,
        jitter: this.#options.deps.random(),
        serverRetryMs: this.#serverRetryMs,
        maxReattachesWithoutProgress: this.#options.maxReattachesWithoutProgress,
        counters,
      });
      counters = step.counters;
      const next = await this.#perform(key, entry, step.decision);
      if (next === undefined) return;
      if (step.decision.type === "reattach") {
        const progressed = (this.#book.get(key)?.cursor.lastSeq ?? 0) > entry.cursor.lastSeq;
        counters = {
          ...counters,
          reattachesWithoutProgress: progressed ? 0 : counters.reattachesWithoutProgress + 1,
        };
      }
      signal = next;
    }
  }

  /** Carries out one decision; the next signal, or undefined when this delivery is over. */
  async #perform(
    key: string,
    entry: OutboxEntry,
    decision: DeliveryDecision,
  ): Promise<DeliverySignal | undefined> {
    switch (decision.type) {
      case "stop":
        return undefined;
      case "reattach":
        return this.#transport.reattach(key);
      case "status":
        return this.#transport.statusThenHydrate(key);
      case "hydrate":
        return this.#transport.hydrate(key);
      case "wait":
        await this.#book.commit(key, {
          type: "verdict",
          verdict: decision.verdict,
          at: this.#options.deps.now(),
          nextAttemptAt: decision.at,
        });
        this.schedule(entry.key);
        return undefined;
      case "settle":
        await this.#settle(key, decision.verdict);
        return undefined;
    }
  }

  /**
   * Past the retention window the server may have forgotten the key, so a resend
   * is no longer known to be safe: ask what became of the run (status, then the
   * thread) and settle on that, or mark the entry expired, keeping the answer.
   */
  async #reconcile(key: string): Promise<void> {
    const signal = await this.#transport.statusThenHydrate(key);
    const entry = this.#book.get(key);
    if (!entry) return;
    const step = deliveryStep(entry, signal, {
      serverKind: this.#options.serverKind(),
      now: this.#options.deps.now(),
      retry: this.#options.retry,
      jitter: 0,
      serverRetryMs: undefined,
      maxReattachesWithoutProgress: 0,
      counters: { reattachesWithoutProgress: 0, budgetSpent: true },
    });
    const verdict = step.decision.type === "settle" ? step.decision.verdict : undefined;
    if (verdict && (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost")) {
      await this.#settle(key, verdict);
      return;
    }
    await this.#book.commit(key, { type: "expired", at: this.#options.deps.now() });
  }

  async #settle(key: string, verdict: Verdict): Promise<void> {
    const settled = await this.#book.commit(key, { type: "verdict", verdict, at: this.#options.deps.now() });
    if (!settled) return;
    const threads = this.#options.threads;
    if (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost") {
      threads.dropInterrupt(settled.threadId, settled.interruptId);
    }
    if (verdict.kind === "needs_user" && verdict.hydrate) {
      this.#options.hydrate(settled.threadId).catch(() => {
        // The card stays as it is; the next hydration refreshes it.
      });
    }
    if (verdict.kind === "paused") this.#options.onPaused(settled);
  }

  /** After a failure the delivery survived: wait a backoff, then try again. */
  #scheduleRetry(key: string): void {
    const entry = this.#book.get(key);
    if (!entry) return;
    const retry: Verdict = {
      kind: "retry",
      rule: "storage-failure",
      reason: STORAGE_RETRY_REASON,
      error: null,
    };
    const step = retryStep(entry, retry, undefined, {
      serverKind: this.#options.serverKind(),
      now: this.#options.deps.now(),
      retry: this.#options.retry,
      jitter: this.#options.deps.random(),
      serverRetryMs: this.#serverRetryMs,
      maxReattachesWithoutProgress: this.#options.maxReattachesWithoutProgress,
      counters: { reattachesWithoutProgress: 0, budgetSpent: true },
    });
    const decision = step.decision;
    this.#track(this.#perform(key, entry, decision));
  }
}
