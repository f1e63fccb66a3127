import { createStore, type StoreApi } from "zustand/vanilla";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { EntryError } from "../outbox/entry";
import type { DeliverySignal } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import { errorOf } from "../outcome/verdict-rules";
import type { RunAgentInput, RunStatus } from "../protocol";
import { backoffDelay, DEFAULT_BACKOFF_CAP_MS } from "../retry/backoff";
import { type PlanRetryOptions, planRetry } from "../retry/plan-retry";
import { type ReadonlyStore, readonlyStore } from "../thread/thread-registry";
import { type HttpFailure, isHttpFailure } from "../transport/agent-http";
import { withChildSignal } from "../transport/child-signal";
import {
  actionForResponse,
  actionForTerminal,
  isPolled,
  startError,
  waitingDelay,
} from "./background-actions";
import { BackgroundEvents } from "./background-events";
import { BackgroundHttp } from "./background-http";
import { type BackgroundRunAction, reduceBackgroundRun } from "./background-reducer";
import { type BackgroundRunRecord, createStartingBackgroundRunRecord } from "./background-run-record";
import { BackgroundRunStore } from "./background-run-store";
import {
  type BackgroundRunsOptions,
  type BackgroundRunsState,
  DEFAULT_BACKGROUND_POLL_INTERVAL_MS,
  type StartBackgroundRunInput,
} from "./background-runs-options";
import { BackgroundVerdict, isFinalBackgroundVerdict } from "./background-verdict";
import { backgroundReason, classifyBackgroundSignal } from "./classify-background";
import { userMessageEvents } from "./user-message-events";

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
 * the network call it depends on, never during it.
 */

/**
 * Starts background runs and keeps polling them, across reloads, with the
 * continuation token the server last handed out: never starting over, never
 * re-running a tool. See the diagram above for the verdicts.
 */
export class BackgroundRuns {
  /** Read-only store of every run of the namespace. */
  readonly runs: ReadonlyStore<BackgroundRunsState>;
  readonly #options: BackgroundRunsOptions;
  readonly #wire: BackgroundHttp;
  readonly #runStore: BackgroundRunStore;
  readonly #state: StoreApi<BackgroundRunsState>;
  readonly #records = new Map<string, BackgroundRunRecord>();
  readonly #events: BackgroundEvents;
  readonly #loops = new Map<string, { readonly generation: number; readonly done: Promise<void> }>();
  readonly #wakers = new Map<string, () => void>();
  /** Aborts `start()` requests on dispose. */
  readonly #lifetime = new AbortController();
  /** Aborts polling on deactivate; replaced on every activation. */
  #abort = new AbortController();
  #active = false;
  #disposed = false;
  #generation = 0;

  constructor(options: BackgroundRunsOptions) {
    this.#options = options;
    this.#wire = new BackgroundHttp({
      url: options.url,
      fetch: options.deps.fetch,
      http: options.http,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    this.#runStore = new BackgroundRunStore(options.store, options.namespace);
    this.#events = new BackgroundEvents({
      threads: options.threads,
      http: options.http,
      timers: options.deps.timers,
      cursorOf: (runId) => this.#records.get(runId)?.lastSeq ?? 0,
      ...(options.hydrate ? { hydrate: options.hydrate } : {}),
      ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }),
    });
    this.#state = createStore<BackgroundRunsState>()(() => ({ runs: [] }));
    this.runs = readonlyStore(this.#state);
  }

  get active(): boolean {
    return this.#active;
  }

  /** One run's record, if this instance knows it. */
  get(runId: string): BackgroundRunRecord | undefined {
    return this.#records.get(runId);
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
    const { threads, deps } = this.#options;
    const { threadId } = input;
    for (const event of userMessageEvents(deps.randomUUID(), input.text)) threads.apply(threadId, event);
    const runId = deps.randomUUID();
    const body: RunAgentInput = {
      threadId,
      runId,
      state: {},
      messages: [...threads.get(threadId).messages],
      tools: [],
      context: [],
      forwardedProps: { background: true },
    };
    const starting = createStartingBackgroundRunRecord({
      runId,
      threadId,
      idempotencyKey: deps.randomUUID(),
      startBody: JSON.stringify(body),
      now: deps.now(),
    });
    await this.#runStore.insert(starting);
    this.#records.set(runId, starting);
    this.#publish();
    const sending = withChildSignal(this.#lifetime.signal, (signal) =>
      this.#sendStart(starting, signal, true),
    );
    this.#startsInFlight.set(runId, sending);
    try {
      return await sending;
    } finally {
      this.#startsInFlight.delete(runId);
      this.#ensureLoop(runId);
    }
  }

  /**
   * Resolves once nothing this instance started is still going to write: the
   * loops (deactivate first) and the starts in flight. `clear` waits for it
   * before it wipes, so no record comes back after a sign-out.
   */
  async drain(): Promise<void> {
    while (this.#loops.size > 0 || this.#startsInFlight.size > 0) {
      await Promise.all(
        [...[...this.#loops.values()].map((loop) => loop.done), ...this.#startsInFlight.values()].map(
          // Waiting only: each loop and start records its own failure on its run.
          (pending) => pending.catch(() => {}),
        ),
      );
    }
  }

  /** Runs whose start request `start()` itself is sending: the loop leaves them alone meanwhile. */
  readonly #startsInFlight = new Map<string, Promise<BackgroundRunRecord>>();

  /**
   * Sends the start (again) with the record's key and bytes, and records what
   * the server said. `fromApp`: a refusal is the caller's to hear (the record
   * is dropped and the error thrown); from the loop it is a verdict.
   */
  async #sendStart(
    record: BackgroundRunRecord,
    signal: AbortSignal,
    fromApp: boolean,
  ): Promise<BackgroundRunRecord> {
    const { runId } = record;
    const answer = await this.#wire.start(record.startBody ?? "", record.idempotencyKey ?? runId, signal);
    this.#throwIfDisposed();
    if (answer.kind === "ok") {
      const { events, response } = answer;
      const lastSeq = await this.#events.apply(runId, record.threadId, events, response.lastSeq, signal);
      const now = this.#options.deps.now();
      const action = actionForResponse(answer.response, lastSeq, now, this.#pollIntervalMs);
      // The first poll goes right away: the server only queued the run.
      await this.#commit(runId, action.type === "polled" ? { ...action, nextPollAt: now } : action);
      return this.#records.get(runId) ?? record;
    }
    const verdict = classifyBackgroundSignal(answer.signal);
    if (verdict.kind === "retry" && answer.signal.type !== "invalid-stream") {
      // The server may have the run: the same key makes the next start find it.
      await this.#scheduleRetry(record, verdict.retryAfterMs, verdict);
      return this.#records.get(runId) ?? record;
    }
    if (fromApp) {
      await this.#runStore.remove(runId);
      this.#records.delete(runId);
      this.#publish();
      throw startError(answer.signal);
    }
    await this.#settle(runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: backgroundReason(verdict),
      error: verdict.error ?? errorOf(answer.signal),
    });
    return this.#records.get(runId) ?? record;
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
    const knownBefore = [...this.#records.keys()];
    const stored = await this.#runStore.loadAll();
    const storedIds = new Set(stored.map((record) => record.runId));
    for (const runId of knownBefore) {
      if (storedIds.has(runId) || this.#startsInFlight.has(runId)) continue;
      this.#records.delete(runId);
      this.#events.forget(runId);
      this.#wakers.get(runId)?.();
    }
    for (const record of stored) {
      const known = this.#records.get(record.runId);
      if (known && known.updatedAt >= record.updatedAt) continue;
      this.#records.set(record.runId, record);
      // Events up to the stored cursor were applied by whoever stored it.
      this.#events.catchUpTo(record.runId, record.lastSeq);
    }
    this.#publish();
    for (const record of stored) this.#ensureLoop(record.runId);
    return this.#state.getState().runs;
  }

  /** Starts polling (this tab became the sending tab). */
  activate(): void {
    if (this.#disposed || this.#active) return;
    this.#active = true;
    this.#generation += 1;
    this.#abort = new AbortController();
    for (const runId of this.#records.keys()) this.#ensureLoop(runId);
  }

  /** Stops polling; an in-flight poll is aborted (its token stays current on the server). */
  deactivate(): void {
    if (!this.#active) return;
    this.#active = false;
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Background polling stopped."));
  }

  /** Stops everything. Records stay durable; the store is not closed. */
  dispose(): void {
    this.deactivate();
    this.#disposed = true;
    this.#lifetime.abort(new OutboxError(ErrorKind.disposed, "The client was disposed."));
  }

  /**
   * Polls a run now: skips a backoff, or tries again after `needs_user` or
   * `paused` with the held token (never for `completed` or `lost`).
   */
  async retryNow(runId: string): Promise<void> {
    const record = this.#records.get(runId);
    if (!record || (record.continuationToken === null && record.startBody == null)) return;
    if (record.verdict === BackgroundVerdict.completed || record.verdict === BackgroundVerdict.lost) return;
    await this.#commit(runId, { type: "poll-now", at: this.#options.deps.now() });
    this.#wakers.get(runId)?.();
    this.#ensureLoop(runId);
  }

  /** After the app re-authenticated: paused runs poll again. */
  async resumeAfterAuth(): Promise<void> {
    for (const record of [...this.#records.values()]) {
      if (record.verdict === BackgroundVerdict.paused) await this.retryNow(record.runId);
    }
  }

  /** Forgets a run with a final verdict; refuses one without (never delete before a final verdict). */
  async discard(runId: string): Promise<void> {
    const record = this.#records.get(runId);
    if (record && !isFinalBackgroundVerdict(record.verdict)) {
      throw new OutboxError(
        ErrorKind.storageFailed,
        `discard refused: background run ${runId} is "${record.verdict}", which is not final`,
      );
    }
    await this.#runStore.remove(runId);
    this.#records.delete(runId);
    this.#events.forget(runId);
    this.#publish();
  }

  /** Forgets what is in memory and reloads from the store (after `clear(namespace)`). */
  async reset(): Promise<void> {
    const wasActive = this.#active;
    this.deactivate();
    this.#records.clear();
    this.#events.clear();
    this.#publish();
    await this.resumeAll();
    if (wasActive) this.activate();
  }

  // ── polling ──────────────────────────────────────────────────────────────

  #ensureLoop(runId: string): void {
    if (!this.#active || this.#disposed) return;
    const record = this.#records.get(runId);
    if (!record || !isPolled(record) || this.#startsInFlight.has(runId)) return;
    const generation = this.#generation;
    const current = this.#loops.get(runId);
    if (current?.generation === generation) return;
    const signal = this.#abort.signal;
    // A loop of an earlier activation may still be finishing an aborted poll: run after it.
    const done = (current?.done ?? Promise.resolve()).then(() => this.#drive(runId, generation, signal));
    const loop = { generation, done };
    this.#loops.set(runId, loop);
    void done.finally(() => {
      if (this.#loops.get(runId) === loop) this.#loops.delete(runId);
    });
  }

  #live(generation: number): boolean {
    return this.#active && !this.#disposed && generation === this.#generation;
  }

  async #drive(runId: string, generation: number, signal: AbortSignal): Promise<void> {
    let storageFailures = 0;
    while (this.#live(generation)) {
      const record = this.#records.get(runId);
      if (!record || !isPolled(record)) return;
      const wait = (record.nextPollAt ?? 0) - this.#options.deps.now();
      if (wait > 0) {
        await this.#sleep(runId, wait, signal, record.status === "interrupted" ? record.threadId : undefined);
        continue;
      }
      try {
        // A signal per request: a fetch leaves its listeners on the signal it was given.
        await withChildSignal(signal, async (request) => {
          if (record.verdict === BackgroundVerdict.starting) await this.#sendStart(record, request, false);
          else await this.#pollOnce(record, request);
        });
        storageFailures = 0;
      } catch {
        if (signal.aborted || !this.#live(generation)) return;
        // A write was refused (quota, closed database): nothing moved on durably.
        // Poll again later with the token that is stored; a stale one recovers via status.
        storageFailures += 1;
        await this.#sleep(runId, backoffDelay(storageFailures, this.#backoff()), signal);
      }
    }
  }

  /** Waits `ms`; with `askingThreadId`, also until that thread's open questions change (one was answered). */
  #sleep(runId: string, ms: number, signal: AbortSignal, askingThreadId?: string): Promise<void> {
    const { timers } = this.#options.deps;
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      let unsubscribe: (() => void) | undefined;
      const wake = () => {
        unsubscribe?.();
        timers.clearTimeout(handle);
        signal.removeEventListener("abort", wake);
        if (this.#wakers.get(runId) === wake) this.#wakers.delete(runId);
        resolve();
      };
      const handle = timers.setTimeout(wake, ms);
      signal.addEventListener("abort", wake, { once: true });
      this.#wakers.set(runId, wake);
      if (askingThreadId !== undefined) {
        // The answer's verdict takes the question off the thread: the run goes on now, not at the next wait.
        const thread = this.#options.threads.store(askingThreadId);
        const asked = thread.getState().pendingInterrupts;
        unsubscribe = thread.subscribe((state) => {
          // Best effort: if the write fails, the wait runs its course.
          if (state.pendingInterrupts !== asked) this.retryNow(runId).catch(() => {});
        });
      }
    });
  }

  async #pollOnce(record: BackgroundRunRecord, signal: AbortSignal): Promise<void> {
    const token = record.continuationToken;
    if (token === null) {
      await this.#settle(record.runId, {
        verdict: BackgroundVerdict.needsUser,
        rule: "background-no-token",
        reason: "The run is not finished but no continuation token is held; reload the conversation.",
        error: null,
      });
      return;
    }
    const answer = await this.#wire.poll(token, signal);
    // An answer that arrived in full is processed even if polling stopped meanwhile:
    // dropping it would leave a stale token behind.
    if (answer.kind === "ok") {
      const { events, response } = answer;
      const lastSeq = await this.#events.apply(
        record.runId,
        record.threadId,
        events,
        response.lastSeq,
        signal,
      );
      const wait =
        response.status === "interrupted"
          ? waitingDelay(
              record,
              this.#pollIntervalMs,
              this.#options.retry?.backoff?.capMs ?? DEFAULT_BACKOFF_CAP_MS,
            )
          : this.#pollIntervalMs;
      await this.#commit(record.runId, actionForResponse(response, lastSeq, this.#options.deps.now(), wait));
      return;
    }
    await this.#onFailure(record, answer.signal, signal);
  }

  async #onFailure(record: BackgroundRunRecord, failure: DeliverySignal, signal: AbortSignal): Promise<void> {
    const verdict = classifyBackgroundSignal(failure);
    switch (verdict.kind) {
      case "retry":
        await this.#scheduleRetry(record, verdict.retryAfterMs, verdict);
        return;
      case "status_then_hydrate":
        await this.#recover(record, verdict, signal);
        return;
      case "paused":
        await this.#commit(record.runId, {
          type: "paused",
          at: this.#options.deps.now(),
          reason: "Sign-in is needed before the background run can be followed.",
          error: verdict.error,
        });
        return;
      case "lost":
        await this.#settle(record.runId, {
          verdict: BackgroundVerdict.lost,
          rule: verdict.rule,
          reason: backgroundReason(verdict),
          error: verdict.error,
        });
        return;
      default:
        await this.#settle(record.runId, {
          verdict: BackgroundVerdict.needsUser,
          rule: verdict.rule,
          reason: backgroundReason(verdict),
          error: verdict.error ?? errorOf(failure),
        });
    }
  }

  async #scheduleRetry(
    record: BackgroundRunRecord,
    retryAfterMs: number | undefined,
    why: { readonly reason: string; readonly rule: string; readonly error: EntryError | null },
  ): Promise<void> {
    const now = this.#options.deps.now();
    const attempts = record.attempts + 1;
    const plan = planRetry(
      { attempts, firstAttemptAt: record.failingSince ?? now, now, retryAfterMs },
      this.#retryOptions(),
    );
    if (plan.kind === "exhausted") {
      await this.#settle(record.runId, {
        verdict: BackgroundVerdict.needsUser,
        rule: "retry-budget-exhausted",
        reason: `Gave up polling after ${attempts} failed attempts; the run may still be going on the server.`,
        error: why.error,
        attempts,
      });
      return;
    }
    await this.#commit(record.runId, {
      type: "retry-scheduled",
      at: now,
      retryAt: plan.retryAt,
      reason: why.reason,
      rule: why.rule,
      error: why.error,
    });
  }

  /** STALE or UNKNOWN token: the run status names the current token, or how the run ended. */
  async #recover(record: BackgroundRunRecord, verdict: Verdict, signal: AbortSignal): Promise<void> {
    let status: RunStatus | HttpFailure;
    try {
      status = await this.#options.http.runStatus(record.runId);
    } catch {
      if (signal.aborted) return;
      await this.#scheduleRetry(record, undefined, {
        reason: "The run status could not be read; trying again.",
        rule: verdict.rule,
        error: { kind: "network", message: "The run status request failed." },
      });
      return;
    }
    if (isHttpFailure(status)) {
      if (status.status === 404 || status.status === 410) {
        await this.#giveUp(record, verdict);
        return;
      }
      await this.#onStatusFailure(record, status);
      return;
    }
    if (status.terminal !== null) {
      const lastSeq = await this.#events.catchUp(record, status.lastSeq, status.terminal, signal);
      await this.#commit(record.runId, actionForTerminal(status.terminal, lastSeq, this.#options.deps.now()));
      return;
    }
    const adopted = status.continuationToken;
    if (adopted !== null && adopted !== record.continuationToken) {
      const now = this.#options.deps.now();
      const budget = planRetry(
        { attempts: record.attempts + 1, firstAttemptAt: record.failingSince ?? now, now },
        this.#retryOptions(),
      );
      if (budget.kind === "exhausted") {
        await this.#settle(record.runId, {
          verdict: BackgroundVerdict.needsUser,
          rule: "retry-budget-exhausted",
          reason: "The run kept moving past the held token; reload the conversation.",
          error: verdict.error,
        });
        return;
      }
      await this.#commit(record.runId, {
        type: "token-adopted",
        at: now,
        continuationToken: adopted,
        reason: verdict.reason,
        rule: verdict.rule,
        error: verdict.error,
      });
      return;
    }
    // The status names our own token (or none) while the run goes on: ask again later.
    await this.#scheduleRetry(record, undefined, verdict);
  }

  async #onStatusFailure(record: BackgroundRunRecord, failure: HttpFailure): Promise<void> {
    const signal: DeliverySignal = {
      type: "http-status",
      status: failure.status,
      message: failure.message,
      ...(failure.code === undefined ? {} : { code: failure.code }),
      ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
    };
    const verdict = classifyBackgroundSignal(signal);
    if (verdict.kind === "retry") {
      await this.#scheduleRetry(record, verdict.retryAfterMs, verdict);
      return;
    }
    await this.#settle(record.runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: backgroundReason(verdict),
      error: verdict.error ?? errorOf(signal),
    });
  }

  /** The server forgot the run: show the thread as the server has it, and say so. */
  async #giveUp(record: BackgroundRunRecord, verdict: Verdict): Promise<void> {
    const { hydrate } = this.#options;
    let hydrated = false;
    if (hydrate) {
      hydrated = await hydrate(record.threadId).then(
        () => true,
        () => false,
      );
    }
    await this.#settle(record.runId, {
      verdict: BackgroundVerdict.needsUser,
      rule: verdict.rule,
      reason: hydrated
        ? "The server no longer knows this background run; the conversation was reloaded from the server."
        : "The server no longer knows this background run; reload the conversation to see where it stands.",
      error: verdict.error,
    });
  }

  #settle(
    runId: string,
    settled: {
      readonly verdict: "completed" | "lost" | "needs_user";
      readonly rule: string;
      readonly reason: string;
      readonly error: EntryError | null;
      readonly attempts?: number;
    },
  ): Promise<void> {
    return this.#commit(runId, { type: "settled", at: this.#options.deps.now(), ...settled });
  }

  async #commit(runId: string, action: BackgroundRunAction): Promise<void> {
    const current = this.#records.get(runId);
    if (!current) return;
    const next = reduceBackgroundRun(current, action);
    await this.#runStore.put(next);
    // A reset while the write was in flight forgot the run: do not bring it back.
    if (!this.#records.has(runId)) return;
    this.#records.set(runId, next);
    this.#publish();
  }

  #publish(): void {
    const runs = [...this.#records.values()].sort(
      (a, b) => a.createdAt - b.createdAt || (a.runId < b.runId ? -1 : 1),
    );
    this.#state.setState({ runs }, true);
  }

  get #pollIntervalMs(): number {
    return this.#options.pollIntervalMs ?? DEFAULT_BACKGROUND_POLL_INTERVAL_MS;
  }

  #backoff() {
    return { ...this.#options.retry?.backoff, random: this.#options.deps.random };
  }

  #retryOptions(): PlanRetryOptions {
    const budget = this.#options.retry?.budget;
    return { backoff: this.#backoff(), ...(budget === undefined ? {} : { budget }) };
  }

  #throwIfDisposed(): void {
    if (this.#disposed) throw new OutboxError(ErrorKind.disposed, "The background runner was disposed.");
  }
}
