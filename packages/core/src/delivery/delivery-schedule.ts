import { ErrorKind, isOutboxError } from "../errors/outbox-error";
import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import { backoffDelay } from "../retry/backoff";
import { attemptWait } from "./attempt-wait";
import type { DeliveryDeps } from "./delivery-options";
import type { EntryBook } from "./entry-book";
import { withStorageError } from "./storage-error";

/** Whether this entry's own delivery has something to do now. */
export function sendsOnItsOwn(entry: OutboxEntry): boolean {
  if (isFinalState(entry.state) || entry.batch?.sendsWith !== undefined) return false;
  return (
    entry.state !== EntryState.paused && entry.state !== EntryState.held && entry.state !== EntryState.stalled
  );
}

export interface DeliveryScheduleInit {
  readonly book: EntryBook;
  readonly deps: DeliveryDeps;
  /** One delivery of `key`, from its stored state to a verdict or a wait. */
  readonly deliver: (key: string) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/** When each delivery runs: one run and one timer per entry, a backoff while storage fails. */
export class DeliverySchedule {
  readonly #init: DeliveryScheduleInit;
  readonly #timers = new Map<string, unknown>();
  /** Keys whose wait a timer saw through (real time), whatever the wall clock says. */
  readonly #waited = new Set<string>();
  /** Per key, storage failures in a row (in memory: storage is what fails); a landed write clears it. */
  readonly #storageFailures = new Map<string, number>();
  readonly #running = new Set<string>();
  /** Keys whose schedule was asked for while they were running: looked at again when the run ends. */
  readonly #rescheduleAfterRun = new Set<string>();
  #started = false;

  constructor(init: DeliveryScheduleInit) {
    this.#init = init;
  }

  start(): void {
    this.#started = true;
  }

  stop(): void {
    this.#started = false;
    for (const key of [...this.#timers.keys()]) this.cancel(key);
  }

  schedule(key: string): void {
    if (!this.#started) return;
    if (this.#running.has(key)) {
      this.#rescheduleAfterRun.add(key);
      return;
    }
    const entry = this.#init.book.get(key);
    if (!entry || !sendsOnItsOwn(entry)) return;
    this.cancel(key);
    const wait = attemptWait(entry, this.#init.deps.now(), this.#waited.has(key));
    if (wait > 0) {
      // Timers may fire a little early; the reducer refuses an attempt before `nextAttemptAt`.
      this.wakeAfter(key, wait);
      return;
    }
    this.#run(key).catch(this.#init.onError);
  }

  /** Schedules `key` again in `ms`, replacing any timer it had; `stop` cancels it. */
  wakeAfter(key: string, ms: number): void {
    this.cancel(key);
    const handle = this.#init.deps.timers.setTimeout(() => {
      this.#timers.delete(key);
      this.#waited.add(key);
      this.schedule(key);
    }, ms);
    this.#timers.set(key, handle);
  }

  waiting(key: string): boolean {
    return this.#timers.has(key);
  }

  cancel(key: string): void {
    if (!this.#timers.has(key)) return;
    this.#init.deps.timers.clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
  }

  landed(key: string): void {
    this.#storageFailures.delete(key);
  }

  async #run(key: string): Promise<void> {
    if (this.#running.has(key)) return;
    this.#running.add(key);
    try {
      await this.#init.deliver(key);
      this.#waited.delete(key);
    } catch (error) {
      // A storage failure mid-delivery: shown on the entry, reported, retried after a backoff.
      if (!(isOutboxError(error) && error.kind === ErrorKind.disposed)) {
        this.#init.onError(error);
        this.#afterStorageFailure(key, error);
      }
    } finally {
      this.#running.delete(key);
      if (this.#rescheduleAfterRun.delete(key)) this.schedule(key);
    }
  }

  #afterStorageFailure(key: string, error: unknown): void {
    const failures = (this.#storageFailures.get(key) ?? 0) + 1;
    this.#storageFailures.set(key, failures);
    const ms = backoffDelay(failures - 1, { random: this.#init.deps.random });
    const entry = this.#init.book.get(key);
    if (!entry || isFinalState(entry.state)) return;
    this.#init.book.set(withStorageError(entry, error));
    this.wakeAfter(key, ms);
  }
}
