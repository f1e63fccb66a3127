import type { OutboxDeps } from "../client/deps";
import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import { countersOf, type EntryAction, reduceEntry } from "../outbox/reducer";
import { isPrunable } from "../outbox/retention";
import { classifyOutcome } from "../outcome/classify";
import { outcomeContext } from "../outcome/context";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import { backoffDelay } from "../retry/backoff";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { AgentHttp } from "../transport/agent-http";
import { buildBodyFor } from "./batch-body";
import { type DeliveryStep, type DeliveryStepContext, deliveryStep } from "./delivery-step";
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
  /** False while the server kind is unknown: nothing new is sent (a body is shaped for a known kind only). */
  readonly kindKnown: () => boolean;
  /** The server answered unlike the kind in force (see DeliveryTransport). */
  readonly onKindContradicted?: (reason: string) => void;
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
  /** How long settled entries are kept (see `retention.ts`). @default FINAL_ENTRY_RETENTION_MS */
  readonly finalRetentionMs?: number;
}

const SETTLING: ReadonlySet<string> = new Set(["applied", "elsewhere", "lost", "needs_user"]);

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
  /** Per key, storage failures in a row: the backoff before the next try (storage cannot hold it while failing). */
  readonly #storageFailures = new Map<string, number>();
  /** Never-sent entries waiting for the server kind to be known. */
  readonly #waitingForKind = new Set<string>();
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
      onCommitted: (entry) => this.#committed(entry),
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
      onContradiction: (reason) => this.#options.onKindContradicted?.(reason),
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
    // Copies of one entry are ordered by the revision the store gave them, never by clocks.
    if (!this.#book.mirror(entry)) return;
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
    this.#book.setWritable(true);
    this.#abort = new AbortController();
    const at = this.#options.deps.now();
    for (const entry of this.entries()) {
      // Not written on its own: the delivery writes it with its first step (the
      // resend's `sending`), so a recovered answer costs one write before it goes.
      if (reduceEntry(entry, { type: "recovered-on-start", at }) !== entry) this.#recovering.add(entry.key);
      this.schedule(entry.key);
    }
    // Retention never stands in the way of sending.
    await this.prune().catch((error: unknown) => this.#options.onError?.(error));
  }

  /** Stops sending (this tab lost leadership or the client is disposed). State stays durable. */
  deactivate(): void {
    this.#active = false;
    // A write queued before this point must not land after a new leader's.
    this.#book.setWritable(false);
    this.#recovering.clear();
    this.#transport.reset();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    for (const key of [...this.#timers.keys()]) this.#cancelTimer(key);
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
    const batch = entry.batch;
    if (!batch || entry.state !== EntryState.held) return entry;
    const ids = batch.interruptIds.join();
    const members: OutboxEntry[] = [];
    for (const interruptId of batch.interruptIds) {
      const member = [...this.#book.values()].find(
        (candidate) =>
          candidate.threadId === entry.threadId &&
          candidate.interruptId === interruptId &&
          candidate.state === EntryState.held &&
          candidate.batch?.interruptIds.join() === ids,
      );
      if (!member) return entry;
      members.push(member);
    }
    const built = this.#options.kindKnown()
      ? await buildBodyFor(entry, members, this.#options.serverKind())
      : undefined;
    const body = built?.ok ? built.body : "";
    const at = this.#options.deps.now();
    for (const member of members) {
      if (member.key === entry.key) continue;
      await this.#book.commit(member.key, {
        type: "sealed",
        runId: entry.runId,
        body,
        sendsWith: entry.key,
        at,
      });
    }
    const sealed = await this.#book.commit(entry.key, { type: "sealed", runId: entry.runId, body, at });
    if (this.#active) this.#wakeAfter(entry.key, 0);
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
    if (!entry.batch || entry.batch.sendsWith !== undefined || isFinalState(entry.state)) return;
    for (const follower of this.#book.followersOf(entry.key)) {
      const same =
        follower.state === entry.state &&
        follower.attempts === entry.attempts &&
        follower.nextAttemptAt === entry.nextAttemptAt &&
        follower.lastError === entry.lastError;
      if (same || isFinalState(follower.state)) continue;
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

  async #deliver(key: string): Promise<void> {
    const recovering = this.#recovering.delete(key);
    const initial = this.#book.get(key);
    if (!initial || !this.#sends(initial)) return;
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
    if (!initial.everSent && !this.#options.kindKnown()) {
      this.#waitingForKind.add(key);
      return;
    }
    let body: string | undefined;
    if (initial.body === "") {
      // Shaped now, for the kind known now, and fixed from this first send on.
      const built = await buildBodyFor(
        initial,
        [initial, ...this.#book.followersOf(key)],
        this.#options.serverKind(),
      );
      if (!built.ok) {
        await this.#settle(key, {
          kind: "needs_user",
          rule: "answer-refused-by-schema",
          reason: built.message,
          error: { kind: ErrorKind.invalidAnswer, message: built.message },
          hydrate: false,
        });
        return;
      }
      body = built.body;
    }
    const first =
      initial.state === EntryState.streaming && initial.cursor.acked
        ? await this.#transport.reattach(key)
        : await this.#transport.send(key, recovering, body);
    if (!first) return;
    let signal: DeliverySignal = first;
    for (;;) {
      if (!this.#active) return;
      const entry = this.#book.get(key);
      if (!entry) return;
      const step = deliveryStep(entry, signal, this.#stepContext());
      const next = await this.#perform(key, entry, step, signal);
      if (next === undefined) return;
      signal = next;
    }
  }

  #stepContext(): DeliveryStepContext {
    return {
      serverKind: this.#options.serverKind(),
      now: this.#options.deps.now(),
      retry: this.#options.retry,
      jitter: this.#options.deps.random(),
      serverRetryMs: this.#serverRetryMs,
      maxReattachesWithoutProgress: this.#options.maxReattachesWithoutProgress,
    };
  }

  /**
   * Carries out one decision, writing the step's counters with it; the next
   * signal, or undefined when this delivery is over.
   */
  async #perform(
    key: string,
    entry: OutboxEntry,
    step: DeliveryStep,
    signal: DeliverySignal,
  ): Promise<DeliverySignal | undefined> {
    const decision = step.decision;
    const at = this.#options.deps.now();
    const counted: EntryAction[] =
      step.counters === countersOf(entry) ? [] : [{ type: "counted", counters: step.counters, at }];
    const writeCounters = async () => {
      if (counted.length > 0) await this.#book.commit(key, ...counted);
    };
    switch (decision.type) {
      case "stop":
        await writeCounters();
        return undefined;
      case "reattach": {
        const failedBefore = step.counters.reattachesWithoutProgress;
        // A re-attach that brought nothing waits a backoff before the next one.
        if (failedBefore > 0)
          await this.#sleep(backoffDelay(failedBefore - 1, { random: this.#options.deps.random }));
        if (!this.#active) return undefined;
        const next = await this.#transport.reattach(key);
        const after = this.#book.get(key);
        if (!after) return undefined;
        const progressed = after.cursor.lastSeq > entry.cursor.lastSeq;
        const counters = {
          ...countersOf(after),
          reattachesWithoutProgress: progressed ? 0 : failedBefore + 1,
        };
        await this.#book.commit(key, { type: "counted", counters, at: this.#options.deps.now() });
        return next;
      }
      case "status":
        await writeCounters();
        return this.#transport.statusThenHydrate(key);
      case "hydrate":
        await writeCounters();
        return this.#transport.hydrate(key);
      case "wait":
        await this.#book.commit(key, ...counted, {
          type: "verdict",
          verdict: decision.verdict,
          at,
          nextAttemptAt: decision.at,
        });
        this.schedule(key);
        return undefined;
      case "stall":
        await this.#book.commit(key, ...counted, {
          type: "stalled",
          reason: decision.reason,
          error: decision.error,
          at,
        });
        return undefined;
      case "settle":
        await writeCounters();
        await this.#settle(key, decision.verdict, signal);
        return undefined;
    }
  }

  /** Waits `ms` on the injected timers; delivery stopping ends the wait. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.#abort.signal;
      const handle = this.#options.deps.timers.setTimeout(resolve, ms);
      signal.addEventListener(
        "abort",
        () => {
          this.#options.deps.timers.clearTimeout(handle);
          resolve();
        },
        { once: true },
      );
    });
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
    const verdict = classifyOutcome(signal, outcomeContext(entry, this.#options.serverKind()));
    if (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost") {
      await this.#settle(key, verdict, signal);
      return;
    }
    await this.#book.commit(key, { type: "expired", at: this.#options.deps.now() });
  }

  /**
   * Writes the verdict; the answers sent in the same request get their own,
   * from the same signal read in each one's context (a hydration is read for
   * each one's own tool call), or this one's where theirs would not settle.
   */
  async #settle(key: string, verdict: Verdict, signal?: DeliverySignal): Promise<void> {
    await this.#settleOne(key, verdict);
    for (const follower of this.#book.followersOf(key)) {
      if (isFinalState(follower.state)) continue;
      const seen = signal?.type === "hydrated" ? this.#transport.hydratedSignal(follower) : signal;
      const own = seen && classifyOutcome(seen, outcomeContext(follower, this.#options.serverKind()));
      await this.#settleOne(follower.key, own && SETTLING.has(own.kind) ? own : verdict);
    }
  }

  async #settleOne(key: string, verdict: Verdict): Promise<void> {
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
    await this.#book.load();
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
