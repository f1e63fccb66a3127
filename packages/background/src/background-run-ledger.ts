import type { ReadonlyStore } from "@agui-outbox/core";
import { type PlanRetryOptions, planRetry, readonlyStore } from "@agui-outbox/core/internal";
import { createStore, type StoreApi } from "zustand/vanilla";
import { type BackgroundRunAction, reduceBackgroundRun } from "./background-reducer";
import { type BackgroundRunRecord, oldestFirst } from "./background-run-record";
import type { BackgroundRunStore } from "./background-run-store";
import type { BackgroundRunsState } from "./background-runs-options";
import { BackgroundVerdict } from "./background-verdict";

/** A final verdict and why: the reducer's `settled` action without its time. */
type Settled = Omit<Extract<BackgroundRunAction, { type: "settled" }>, "type" | "at">;
/** Why a request is tried again, kept on the record. */
type RetryReason = Pick<
  Extract<BackgroundRunAction, { type: "retry-scheduled" }>,
  "reason" | "rule" | "error"
>;

/**
 * The runs this instance knows: one observable list, and every transition one
 * reducer step and one durable write. The list is the only copy in memory.
 */
export class BackgroundRunLedger {
  readonly runs: ReadonlyStore<BackgroundRunsState>;
  readonly now: () => number;
  /** Backoff (with the client's jitter) and budget for failed requests. */
  readonly retry: PlanRetryOptions;
  readonly #store: BackgroundRunStore;
  readonly #state: StoreApi<BackgroundRunsState> = createStore<BackgroundRunsState>()(() => ({ runs: [] }));

  constructor(store: BackgroundRunStore, now: () => number, retry: PlanRetryOptions) {
    this.#store = store;
    this.now = now;
    this.retry = retry;
    this.runs = readonlyStore(this.#state);
  }

  get(runId: string): BackgroundRunRecord | undefined {
    return this.all().find((record) => record.runId === runId);
  }

  all(): readonly BackgroundRunRecord[] {
    return this.#state.getState().runs;
  }

  /** Replaces the list (records read from storage, or none after a reset). */
  show(runs: readonly BackgroundRunRecord[]): void {
    this.#state.setState({ runs: [...runs].sort(oldestFirst) }, true);
  }

  /** Writes a new run, then shows it. */
  async insert(record: BackgroundRunRecord): Promise<void> {
    await this.#store.put(record);
    this.show([...this.all(), record]);
  }

  /** Deletes a run from storage and from the list. */
  async remove(runId: string): Promise<void> {
    await this.#store.remove(runId);
    this.show(this.all().filter((record) => record.runId !== runId));
  }

  async commit(runId: string, action: BackgroundRunAction): Promise<void> {
    const current = this.get(runId);
    if (!current) return;
    const next = reduceBackgroundRun(current, action);
    await this.#store.put(next);
    // A reset while the write was in flight forgot the run: do not bring it back.
    if (!this.get(runId)) return;
    this.show(this.all().map((record) => (record.runId === runId ? next : record)));
  }

  settle(runId: string, settled: Settled): Promise<void> {
    return this.commit(runId, { type: "settled", at: this.now(), ...settled });
  }

  /** One more failed attempt: wait (at least `retryAfterMs`), or `needs_user` once the budget is spent. */
  async retryLater(
    record: BackgroundRunRecord,
    retryAfterMs: number | undefined,
    why: RetryReason,
  ): Promise<void> {
    const now = this.now();
    const attempts = record.attempts + 1;
    const plan = planRetry(
      { attempts, firstAttemptAt: record.failingSince ?? now, now, retryAfterMs },
      this.retry,
    );
    if (plan.kind === "exhausted") {
      await this.settle(record.runId, {
        verdict: BackgroundVerdict.needsUser,
        rule: "retry-budget-exhausted",
        reason: `Gave up polling after ${attempts} failed attempts; the run may still be going on the server.`,
        error: why.error,
        attempts,
      });
      return;
    }
    const { reason, rule, error } = why;
    await this.commit(record.runId, {
      type: "retry-scheduled",
      at: now,
      retryAt: plan.retryAt,
      reason,
      rule,
      error,
    });
  }
}
