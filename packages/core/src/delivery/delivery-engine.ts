import type { OutboxDeps } from "../client/deps";
import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import { compareEntries, type OutboxStore } from "../outbox/outbox-store";
import { type EntryAction, reduceEntry } from "../outbox/reducer";
import { withEntry, withoutEntry } from "../outbox/sorted-entries";
import { classifyOutcome } from "../outcome/classify";
import { outcomeContext } from "../outcome/context";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import { toolEvidenceIn } from "../outcome/tool-evidence";
import type { Verdict } from "../outcome/verdict";
import { type AgUiEvent, EventType, MetadataKey, ResumeClaimAckSchema, type StreamCursor } from "../protocol";
import { type PlanRetryOptions, planRetry } from "../retry/plan-retry";
import { createEventLog } from "../stream/event-log";
import type { ThreadRegistry } from "../thread/thread-registry";
import { type AgentHttp, isHttpFailure } from "../transport/agent-http";
import { withChildSignal } from "../transport/child-signal";
import { pumpRunStream, terminalSignal } from "./pump-run-stream";

/*
 * One entry's delivery, from its current state to a verdict:
 *
 *   queued / retry_wait (due) ──send──▶ POST /agent (same key, runId, body)
 *        ▲                               │
 *        │ retry (backoff,               ├─ HTTP error ─────────────▶ classify
 *        │  Retry-After)                 └─ 200 event stream ──▶ pump ─▶ classify
 *        │                                      RUN_STARTED + ack ─▶ claim-acked (cursor persisted)
 *   classify ◀──────────────────────────────────┘
 *     ├─ applied / elsewhere / lost / needs_user / paused ─▶ final (or paused) state, persisted
 *     ├─ retry ─▶ retry_wait with nextAttemptAt, timer
 *     ├─ reattach ─▶ GET /runs/{runId}/events, Last-Event-ID ─▶ pump ─▶ classify
 *     ├─ status_then_hydrate ─▶ GET /runs/{runId}: terminal ─▶ classify it; gone ─▶ hydrate
 *     └─ hydrate_then_decide ─▶ POST hydration ─▶ tool result seen? ─▶ classify
 *
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
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  readonly retry: PlanRetryOptions;
  /** Re-attaches in a row without a new event before falling back to a resend. */
  readonly maxReattachesWithoutProgress: number;
}

const RESEND_REASON = "The stream could not be re-attached; sending again with the same key.";
const STORAGE_RETRY_REASON = "Saving delivery progress failed; trying again.";

export class DeliveryEngine {
  readonly #options: DeliveryEngineOptions;
  readonly #entries = new Map<string, OutboxEntry>();
  /**
   * The same entries in storage order, replaced (never mutated) on each change:
   * what `publish` hands out. Kept in step with `#entries` by binary search, so a
   * change costs no sort and no pass over the other entries.
   */
  #sorted: readonly OutboxEntry[] = [];
  readonly #running = new Set<string>();
  /** Keys whose schedule was asked for while they were running: looked at again when the run ends. */
  readonly #rescheduleAfterRun = new Set<string>();
  readonly #timers = new Map<string, unknown>();
  /**
   * Entries found in flight by `activate` (the page that sent them is gone):
   * their `recovered-on-start` step is written together with the next step.
   */
  readonly #recovering = new Set<string>();
  /** Per key, the last write queued: writes to one entry run one after another. */
  readonly #writing = new Map<string, Promise<unknown>>();
  /** Per key, the furthest stream position processed whose write has not started yet. */
  readonly #unsavedProgress = new Map<string, { seq: number; at: number }>();
  #abort = new AbortController();
  #active = false;
  /** The last `retry:` a stream sent: a floor for the next backoff. */
  #serverRetryMs: number | undefined;

  constructor(options: DeliveryEngineOptions) {
    this.#options = options;
  }

  /** The namespace's entries, oldest first. A snapshot: later changes make a new array. */
  entries(): readonly OutboxEntry[] {
    return this.#sorted;
  }

  /**
   * (Re)reads the namespace's entries from storage; does not send. Storage is the
   * source of truth, except for an entry another tab reported while the read was
   * under way: the newer of the two wins.
   */
  async load(): Promise<void> {
    const stored = await this.#options.store.listByNamespace(this.#options.namespace);
    const known = new Map(this.#entries);
    this.#entries.clear();
    for (const entry of stored) {
      const mirrored = known.get(entry.key);
      this.#entries.set(entry.key, mirrored && mirrored.updatedAt > entry.updatedAt ? mirrored : entry);
    }
    this.#sorted = [...this.#entries.values()].sort(compareEntries);
    this.#options.publish(this.#sorted);
  }

  /**
   * Adopts an entry written elsewhere (this tab's `answer()`, or another tab).
   * It is published at once; with `sendAfterThisTask` its delivery starts in a
   * later task, so the code that just wrote it goes on first.
   */
  adopt(entry: OutboxEntry, options: { readonly sendAfterThisTask?: boolean } = {}): void {
    if (entry.namespace !== this.#options.namespace) return;
    const known = this.#entries.get(entry.key);
    if (known && known.updatedAt > entry.updatedAt) return;
    this.#set(entry);
    if (!this.#active) return;
    if (options.sendAfterThisTask) this.#wakeAfter(entry.key, 0);
    else this.schedule(entry.key);
  }

  forget(key: string): void {
    this.#cancelTimer(key);
    const known = this.#entries.get(key);
    if (known === undefined) return;
    this.#entries.delete(key);
    this.#sorted = withoutEntry(this.#sorted, known);
    this.#options.publish(this.#sorted, key);
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
    this.#unsavedProgress.clear();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    for (const key of [...this.#timers.keys()]) this.#cancelTimer(key);
  }

  /**
   * The browser came back online or visible: entries that wait only because the
   * network failed go now. Entries waiting on a server's `Retry-After` (or any
   * other server answer) keep their time: a hint never overrides the server.
   */
  retryNetworkWaitsNow(): void {
    for (const entry of this.#entries.values()) {
      if (entry.state === EntryState.retryWait && entry.lastError?.kind === ErrorKind.network) {
        void this.retryNow(entry.key);
      }
    }
  }

  async retryNow(key: string): Promise<void> {
    await this.#commit(key, { type: "retry-now", at: this.#options.deps.now() });
    this.schedule(key);
  }

  async resumeAfterAuth(): Promise<void> {
    for (const entry of this.entries()) {
      if (entry.state !== EntryState.paused) continue;
      await this.#commit(entry.key, { type: "resumed-auth", at: this.#options.deps.now() });
      this.schedule(entry.key);
    }
  }

  schedule(key: string): void {
    if (!this.#active) return;
    if (this.#running.has(key)) {
      this.#rescheduleAfterRun.add(key);
      return;
    }
    const entry = this.#entries.get(key);
    if (!entry || isFinalState(entry.state) || entry.state === EntryState.paused) return;
    this.#cancelTimer(key);
    const wait = this.#waitBeforeAttempt(entry);
    if (wait > 0) {
      // The timer only asks again: timers may fire a little early, and the
      // reducer refuses an attempt before `nextAttemptAt`.
      this.#wakeAfter(key, wait);
      return;
    }
    void this.#run(key);
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

  /** Holds `entry` (replacing its key's current one) and publishes the change. */
  #set(entry: OutboxEntry): void {
    this.#entries.set(entry.key, entry);
    this.#sorted = withEntry(this.#sorted, entry);
    this.#options.publish(this.#sorted, entry.key, entry);
  }

  /** Reduces `actions` in turn and writes the result once (one step, or a recovery and its step). */
  #commit(key: string, ...actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    return this.#queueWrite(key, () => this.#commitNow(key, actions));
  }

  /**
   * Runs `write` once the key's earlier writes are done, so each one reduces
   * from the entry the previous one stored and the last one queued wins.
   */
  #queueWrite<T>(key: string, write: () => Promise<T>): Promise<T> {
    const before = this.#writing.get(key);
    const run = before === undefined ? write() : before.then(write);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.#writing.set(key, settled);
    void settled.then(() => {
      if (this.#writing.get(key) === settled) this.#writing.delete(key);
    });
    return run;
  }

  /**
   * Stream progress is written behind the stream, not in its way: the cursor
   * only decides where a re-attach after a reload starts, and a cursor that
   * lags replays events the log already holds. While one progress write runs,
   * later events only move the position the next write will store, so a burst
   * costs two writes, not one per event. It never runs ahead of what was
   * processed.
   */
  #noteProgress(key: string, seq: number, at: number): void {
    const unsaved = this.#unsavedProgress.get(key);
    if (unsaved !== undefined) {
      if (seq > unsaved.seq) {
        unsaved.seq = seq;
        unsaved.at = at;
      }
      return;
    }
    this.#unsavedProgress.set(key, { seq, at });
    void this.#queueWrite(key, async () => {
      const progress = this.#unsavedProgress.get(key);
      this.#unsavedProgress.delete(key);
      if (progress === undefined || !this.#active) return;
      await this.#commitNow(key, [{ type: "event-seen", seq: progress.seq, at: progress.at }]);
    }).catch(() => {
      // A failed progress write leaves an older cursor: a re-attach replays a little more.
    });
  }

  async #commitNow(key: string, actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    let next = entry;
    for (const action of actions) next = reduceEntry(next, action);
    if (next === entry) return entry;
    await this.#options.store.put(next);
    this.#set(next);
    return next;
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
        const entry = this.#entries.get(key);
        if (entry && !isFinalState(entry.state)) this.#scheduleRetry(key);
      }
    } finally {
      this.#running.delete(key);
      if (this.#rescheduleAfterRun.delete(key)) this.schedule(key);
    }
  }

  async #deliver(key: string): Promise<void> {
    const recovering = this.#recovering.delete(key);
    const initial = this.#entries.get(key);
    if (!initial || isFinalState(initial.state) || initial.state === EntryState.paused) return;
    if (initial.everSent && this.#options.deps.now() >= initial.expiresAt) {
      if (recovering) await this.#commit(key, { type: "recovered-on-start", at: this.#options.deps.now() });
      await this.#reconcile(key);
      return;
    }
    if (this.#waitBeforeAttempt(initial) > 0) {
      this.schedule(key);
      return;
    }
    const first =
      initial.state === EntryState.streaming && initial.cursor.acked
        ? await this.#reattach(key)
        : await this.#send(key, recovering);
    if (!first) return;
    let signal = first;
    let reattachesWithoutProgress = 0;
    let budgetSpent = false;
    for (;;) {
      if (!this.#active) return;
      const entry = this.#entries.get(key);
      if (!entry) return;
      const verdict = classifyOutcome(
        this.#withToolEvidence(entry, signal),
        outcomeContext(entry, this.#options.serverKind()),
      );
      switch (verdict.kind) {
        case "continue":
          // Only RUN_STARTED classifies as continue, and the pump handles it inline.
          return;
        case "reattach": {
          const before = entry.cursor.lastSeq;
          if (reattachesWithoutProgress >= this.#options.maxReattachesWithoutProgress) {
            // Re-attaching keeps failing: send again with the same key, later. The
            // server attaches a repeated submission to its run or replays its outcome.
            const resend: Verdict = {
              kind: "retry",
              rule: verdict.rule,
              reason: RESEND_REASON,
              error: verdict.error,
            };
            const next = await this.#retryLater(key, resend, undefined, budgetSpent);
            if (!next) return;
            budgetSpent = true;
            signal = next;
            continue;
          }
          signal = await this.#reattach(key);
          const after = this.#entries.get(key)?.cursor.lastSeq ?? before;
          reattachesWithoutProgress = after > before ? 0 : reattachesWithoutProgress + 1;
          continue;
        }
        case "status_then_hydrate":
          signal = await this.#statusThenHydrate(key);
          continue;
        case "hydrate_then_decide":
          signal = await this.#hydrateSignal(key);
          continue;
        case "retry": {
          // Also when another submission holds the claim (`reattachRunId`): wait, then ask again.
          const next = await this.#retryLater(key, verdict, verdict.retryAfterMs, budgetSpent);
          if (!next) return;
          budgetSpent = true;
          signal = next;
          continue;
        }
        default:
          await this.#settle(key, verdict);
          return;
      }
    }
  }

  /**
   * Past the retention window the server may have forgotten the key, so a resend
   * is no longer known to be safe: ask what became of the run (status, then the
   * thread) and settle on that, or mark the entry expired, keeping the answer.
   */
  async #reconcile(key: string): Promise<void> {
    const signal = await this.#statusThenHydrate(key);
    const entry = this.#entries.get(key);
    if (!entry) return;
    const verdict = classifyOutcome(signal, outcomeContext(entry, this.#options.serverKind()));
    const settles = verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost";
    if (settles) {
      await this.#settle(key, verdict);
      return;
    }
    await this.#commit(key, { type: "expired", at: this.#options.deps.now() });
  }

  async #settle(key: string, verdict: Verdict): Promise<void> {
    const settled = await this.#commit(key, { type: "verdict", verdict, at: this.#options.deps.now() });
    if (!settled) return;
    const threads = this.#options.threads;
    if (verdict.kind === "applied" || verdict.kind === "elsewhere" || verdict.kind === "lost") {
      threads.dropInterrupt(settled.threadId, settled.interruptId);
    }
    if (verdict.kind === "needs_user" && verdict.hydrate) {
      void this.#options.hydrate(settled.threadId).catch(() => {});
    }
    if (verdict.kind === "paused") this.#options.onPaused(settled);
  }

  /**
   * Persists `retry_wait` with the next attempt time and arms its timer. When the
   * retry budget is spent, returns the signal that says so (the thread is then
   * checked before anything is concluded), unless that was already tried in this
   * delivery: then the answer waits for the person.
   */
  async #retryLater(
    key: string,
    verdict: Verdict,
    retryAfterMs: number | undefined,
    budgetSpent: boolean,
  ): Promise<DeliverySignal | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const now = this.#options.deps.now();
    const plan = planRetry(
      {
        attempts: Math.max(1, entry.attempts),
        firstAttemptAt: entry.createdAt,
        now,
        retryAfterMs,
        serverRetryMs: this.#serverRetryMs,
      },
      {
        ...this.#options.retry,
        backoff: { random: this.#options.deps.random, ...this.#options.retry.backoff },
      },
    );
    if (plan.kind === "exhausted") {
      if (!budgetSpent) return { type: "retry-budget-exhausted", attempts: entry.attempts };
      await this.#settle(key, {
        kind: "needs_user",
        rule: "retry-budget-exhausted",
        reason: "Delivery kept failing; the answer is kept. Retry when the connection is back.",
        error: { kind: plan.error.kind, message: plan.error.message },
        hydrate: false,
      });
      return undefined;
    }
    await this.#commit(key, { type: "verdict", verdict, at: now, nextAttemptAt: plan.retryAt });
    this.schedule(key);
    return undefined;
  }

  #scheduleRetry(key: string): void {
    const retry: Verdict = {
      kind: "retry",
      rule: "storage-failure",
      reason: STORAGE_RETRY_REASON,
      error: null,
    };
    void this.#retryLater(key, retry, undefined, true).catch(() => {});
  }

  /**
   * One POST of the entry's exact body; undefined when the entry is not due for
   * one. `recovering`: the entry was in flight when the last page died, so the
   * write before the POST also records its recovery.
   */
  async #send(key: string, recovering = false): Promise<DeliverySignal | undefined> {
    const at = this.#options.deps.now();
    const started = recovering
      ? await this.#commit(key, { type: "recovered-on-start", at }, { type: "attempt-started", at })
      : await this.#commit(key, { type: "attempt-started", at });
    if (!started || started.state !== EntryState.sending) return undefined;
    return withChildSignal(this.#abort.signal, async (signal) => {
      let response: Response;
      try {
        response = await this.#options.http.postRun(started.body, { idempotencyKey: started.key, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        return { type: "network-error", message: isOutboxError(error) ? error.message : "fetch failed" };
      }
      if (!response.ok) return this.#httpSignal(response);
      return this.#pump(key, response, signal);
    });
  }

  async #httpSignal(response: Response): Promise<DeliverySignal> {
    const failure = await this.#options.http.failure(response);
    return {
      type: "http-status",
      status: failure.status,
      message: failure.message,
      ...(failure.code ? { code: failure.code } : {}),
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  }

  async #reattach(key: string): Promise<DeliverySignal> {
    const entry = this.#entries.get(key);
    if (!entry) return { type: "network-error" };
    return withChildSignal(this.#abort.signal, async (signal) => {
      let response: Response;
      try {
        response = await this.#options.http.reattach(entry.cursor.runId, entry.cursor.lastSeq, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return { type: "network-error" };
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return { type: "reattach-gone", status: response.status };
      }
      if (!response.ok) return this.#httpSignal(response);
      return this.#pump(key, response, signal, { runId: entry.cursor.runId, seq: entry.cursor.lastSeq });
    });
  }

  /** `resumeFrom`: the cursor a re-attach continues after; absent for a fresh POST. */
  async #pump(
    key: string,
    response: Response,
    abort: AbortSignal,
    resumeFrom?: StreamCursor,
  ): Promise<DeliverySignal> {
    const signal = await pumpRunStream(response, {
      ...(resumeFrom ? { log: createEventLog([resumeFrom]) } : {}),
      timers: this.#options.deps.timers,
      stallTimeoutMs: this.#options.stallTimeoutMs,
      maxEventBytes: this.#options.maxEventBytes,
      signal: abort,
      onRetry: (ms) => {
        this.#serverRetryMs = ms;
      },
      onEvent: (event, cursor) => this.#onEvent(key, event, cursor),
    });
    // What follows (classifying, re-attaching from the cursor) reads the stored progress.
    await this.#writing.get(key);
    return signal;
  }

  /** A promise only when the stream must wait for it (the claim's write). */
  #onEvent(key: string, event: AgUiEvent, cursor: StreamCursor | undefined): Promise<void> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#options.threads.apply(entry.threadId, event);
    const at = this.#options.deps.now();
    if (event.type === EventType.RUN_STARTED) {
      const verdict = classifyOutcome(
        { type: "run-started", acked: isOurClaimAck(event.metadata?.[MetadataKey.resume], entry) },
        outcomeContext(entry, this.#options.serverKind()),
      );
      if (verdict.kind === "continue" && verdict.acked) {
        // Awaited: from here a reload re-attaches instead of sending again.
        return this.#commit(key, {
          type: "claim-acked",
          runId: cursor?.runId ?? entry.runId,
          seq: cursor?.seq ?? 0,
          at,
        }).then(() => {});
      }
    }
    if (cursor && cursor.runId === entry.cursor.runId) this.#noteProgress(key, cursor.seq, at);
    return undefined;
  }

  async #statusThenHydrate(key: string): Promise<DeliverySignal> {
    const entry = this.#entries.get(key);
    if (!entry) return { type: "network-error" };
    try {
      const status = await this.#options.http.runStatus(entry.cursor.runId);
      if (isHttpFailure(status)) {
        if (status.status === 404 || status.status === 410) return this.#hydrateSignal(key);
        return { type: "http-status", status: status.status, ...(status.code ? { code: status.code } : {}) };
      }
      if (status.terminal) {
        const terminal = terminalSignal(status.terminal as AgUiEvent);
        if (terminal) return terminal;
      }
      return { type: "run-status", status: "running" };
    } catch {
      return { type: "network-error" };
    }
  }

  /**
   * A finished run on a server without the contract proves nothing by itself: the
   * thread it streamed must show the tool's own result (outcome/tool-evidence.ts).
   */
  #withToolEvidence(entry: OutboxEntry, signal: DeliverySignal): DeliverySignal {
    const serverKind = this.#options.serverKind();
    if (signal.type !== "run-finished" || serverKind !== "degraded") return signal;
    const thread = this.#options.threads.get(entry.threadId);
    const toolEvidence = toolEvidenceIn(thread.messages, entry.toolCallId ?? entry.interruptId, serverKind);
    return { ...signal, toolEvidence };
  }

  async #hydrateSignal(key: string): Promise<DeliverySignal> {
    const entry = this.#entries.get(key);
    if (!entry) return { type: "network-error" };
    try {
      await this.#options.hydrate(entry.threadId);
    } catch {
      return { type: "network-error" };
    }
    const thread = this.#options.threads.get(entry.threadId);
    return {
      type: "hydrated",
      toolEvidence: toolEvidenceIn(
        thread.messages,
        entry.toolCallId ?? entry.interruptId,
        this.#options.serverKind(),
      ),
      interruptStillOpen: thread.pendingInterrupts.some((interrupt) => interrupt.id === entry.interruptId),
    };
  }
}

/** The claim ack must name our key and our interrupt: an ack for someone else's claim is not ours. */
function isOurClaimAck(value: unknown, entry: OutboxEntry): boolean {
  const ack = ResumeClaimAckSchema.safeParse(value);
  return (
    ack.success && ack.data.idempotencyKey === entry.key && ack.data.interruptIds.includes(entry.interruptId)
  );
}
