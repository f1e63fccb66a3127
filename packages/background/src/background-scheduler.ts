import { ErrorKind, OutboxError } from "@agui-outbox/core";
import { backoffDelay, withChildSignal } from "@agui-outbox/core/internal";
import { isPolled } from "./background-actions";
import type { BackgroundPoll } from "./background-poll";
import type { BackgroundRunLedger } from "./background-run-ledger";
import type { BackgroundRunRecord } from "./background-run-record";
import type { BackgroundRunsOptions } from "./background-runs-options";
import { BackgroundVerdict } from "./background-verdict";

export interface BackgroundSchedulerOptions extends Pick<BackgroundRunsOptions, "threads" | "deps"> {
  readonly ledger: BackgroundRunLedger;
  readonly poll: BackgroundPoll;
}

/**
 * One loop per run, only while this tab is the sending tab: wait until the
 * record's `nextPollAt`, send one request, repeat. A run waiting for an answer
 * is woken when its thread's open questions change.
 */
export class BackgroundScheduler {
  readonly #options: BackgroundSchedulerOptions;
  /** Each loop runs under the signal of the activation that started it. */
  readonly #loops = new Map<string, { readonly signal: AbortSignal; readonly done: Promise<void> }>();
  readonly #wakers = new Map<string, () => void>();
  /** Runs whose start request `start()` itself is sending: no loop for them meanwhile. */
  readonly #starting = new Map<string, Promise<BackgroundRunRecord>>();
  /** Set while this tab polls; aborted on deactivate, and a new one on every activation. */
  #polling: AbortController | null = null;

  constructor(options: BackgroundSchedulerOptions) {
    this.#options = options;
  }

  get active(): boolean {
    return this.#polling !== null;
  }

  activate(): void {
    if (this.#polling) return;
    this.#polling = new AbortController();
    for (const record of this.#options.ledger.all()) this.ensureLoop(record.runId);
  }

  /** An in-flight poll is aborted (its token stays current on the server). */
  deactivate(): void {
    this.#polling?.abort(new OutboxError(ErrorKind.disposed, "Background polling stopped."));
    this.#polling = null;
  }

  /** Keeps the loop off a run while `start()` sends its start; the loop takes over after. */
  async whileStarting(runId: string, sending: Promise<BackgroundRunRecord>): Promise<BackgroundRunRecord> {
    this.#starting.set(runId, sending);
    try {
      return await sending;
    } finally {
      this.#starting.delete(runId);
      this.ensureLoop(runId);
    }
  }

  isStarting(runId: string): boolean {
    return this.#starting.has(runId);
  }

  /** Ends a run's wait now. */
  wake(runId: string): void {
    this.#wakers.get(runId)?.();
  }

  /** Polls a run now (never one that is `completed` or `lost`, or has nothing to send). */
  async retryNow(runId: string): Promise<void> {
    const { ledger } = this.#options;
    const record = ledger.get(runId);
    if (!record || (record.continuationToken === null && record.startBody == null)) return;
    if (record.verdict === BackgroundVerdict.completed || record.verdict === BackgroundVerdict.lost) return;
    await ledger.commit(runId, { type: "poll-now", at: ledger.now() });
    this.wake(runId);
    this.ensureLoop(runId);
  }

  /** Resolves once no loop and no start is left to write (deactivate first). */
  async drain(): Promise<void> {
    while (this.#loops.size > 0 || this.#starting.size > 0) {
      await Promise.all(
        [...[...this.#loops.values()].map((loop) => loop.done), ...this.#starting.values()].map(
          // Waiting only: each loop and start records its own failure on its run.
          (pending) => pending.catch(() => {}),
        ),
      );
    }
  }

  ensureLoop(runId: string): void {
    const signal = this.#polling?.signal;
    if (!signal) return;
    const record = this.#options.ledger.get(runId);
    if (!record || !isPolled(record) || this.#starting.has(runId)) return;
    const current = this.#loops.get(runId);
    if (current?.signal === signal) return;
    // A loop of an earlier activation may still be finishing an aborted poll: run after it.
    const done = (current?.done ?? Promise.resolve()).then(() => this.#drive(runId, signal));
    const loop = { signal, done };
    this.#loops.set(runId, loop);
    void done.finally(() => {
      if (this.#loops.get(runId) === loop) this.#loops.delete(runId);
    });
  }

  async #drive(runId: string, signal: AbortSignal): Promise<void> {
    const { ledger, poll } = this.#options;
    let storageFailures = 0;
    while (!signal.aborted) {
      const record = ledger.get(runId);
      if (!record || !isPolled(record)) return;
      const wait = (record.nextPollAt ?? 0) - ledger.now();
      if (wait > 0) {
        await this.#sleep(runId, wait, signal, record.status === "interrupted" ? record.threadId : undefined);
        continue;
      }
      try {
        // A signal per request: a fetch leaves its listeners on the signal it was given.
        await withChildSignal(signal, (request) => poll.step(record, request));
        storageFailures = 0;
      } catch {
        if (signal.aborted) return;
        // A write was refused (quota, closed database): nothing moved on durably.
        // Poll again later with the token that is stored; a stale one recovers via status.
        storageFailures += 1;
        await this.#sleep(runId, backoffDelay(storageFailures, ledger.retry.backoff), signal);
      }
    }
  }

  /** Waits `ms`; with `askingThreadId`, also until that thread's open questions change (one was answered). */
  #sleep(runId: string, ms: number, signal: AbortSignal, askingThreadId?: string): Promise<void> {
    const { threads } = this.#options;
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
        const thread = threads.store(askingThreadId);
        const asked = thread.getState().pendingInterrupts;
        unsubscribe = thread.subscribe((state) => {
          // Best effort: if the write fails, the wait runs its course.
          if (state.pendingInterrupts !== asked) this.retryNow(runId).catch(() => {});
        });
      }
    });
  }
}
