import type { StoreApi } from "zustand/vanilla";
import type { DeliveryEngine } from "../delivery/delivery-engine";
import { backoffDelay } from "../retry/backoff";
import type { OutboxDeps } from "./deps";
import { type ErrorSink, ErrorSource } from "./error-sink";
import type { Lifecycle } from "./lifecycle";
import type { ConnectionState } from "./outbox-state";
import type { AttachedPlugins } from "./plugins";

export interface LeadershipOptions {
  readonly deps: OutboxDeps;
  readonly connection: StoreApi<ConnectionState>;
  readonly lifecycle: Lifecycle;
  readonly sink: ErrorSink;
  readonly engine: () => DeliveryEngine | undefined;
  readonly plugins: AttachedPlugins;
  /** The tab still holds the lock. */
  readonly isLeader: () => boolean;
}

/*
 * Leadership changes run one after another, so a quick loss never races a takeover:
 *
 *   granted ─▶ (ready) ─▶ [re-read entries] ─▶ activate delivery + plugins (background runs)
 *      │       (the delivery itself sends nothing new until the server kind is known)
 *      │          a step fails (storage) ─▶ reported, tried again after a full-jitter
 *      │          backoff, or at once when the browser is back (online, visible)
 *   lost ─▶ deactivate at once (durable state stays)
 */

export class Leadership {
  readonly #options: LeadershipOptions;
  #chain: Promise<void> = Promise.resolve();
  #retryTimer: unknown;
  /** Failed steps in a row: the backoff before the next try. */
  #attempts = 0;

  constructor(options: LeadershipOptions) {
    this.#options = options;
  }

  onChange(isLeader: boolean): void {
    const { connection, lifecycle, plugins } = this.#options;
    connection.setState({ leader: isLeader });
    if (!isLeader) {
      this.#cancelRetry();
      this.#options.engine()?.deactivate();
      plugins.deactivate();
      return;
    }
    // Granted before the first read (begun with the channel open) finished: no second read.
    this.#enqueue(lifecycle.isReady, 0);
  }

  /** Resolves once the leadership changes asked for so far have run (never rejects). */
  settled(): Promise<void> {
    return this.#chain;
  }

  /** The browser is back (online, visible): a failed step waiting for its retry is tried now. */
  retryNow(): void {
    const { lifecycle, isLeader } = this.#options;
    if (this.#retryTimer === undefined || lifecycle.isDisposed || !isLeader()) return;
    this.#cancelRetry();
    this.#enqueue(true, this.#attempts);
  }

  /** Stops any retry that is waiting. */
  stop(): void {
    this.#cancelRetry();
  }

  #enqueue(reread: boolean, attempt: number): void {
    const { sink } = this.#options;
    this.#chain = this.#chain
      .then(() => this.#lead(reread))
      .then(
        () => {
          this.#attempts = 0;
        },
        (error: unknown) => {
          sink.report(error, ErrorSource.leadership);
          this.#attempts = attempt + 1;
          this.#retryLater(attempt);
        },
      );
  }

  async #lead(reread: boolean): Promise<void> {
    const { lifecycle, plugins, isLeader } = this.#options;
    await lifecycle.whenReady();
    const engine = this.#options.engine();
    if (!engine || lifecycle.isDisposed) return;
    // Followers may have written answers while no tab led: read them all.
    if (reread) await engine.load();
    if (isLeader() && !lifecycle.isDisposed) {
      await engine.activate();
      // As for the entries: a lock before the start's read finished needs no second read.
      if (reread) await plugins.resumeAll();
      plugins.activate();
    }
  }

  #retryLater(attempt: number): void {
    const { deps, lifecycle, isLeader } = this.#options;
    if (lifecycle.isDisposed || !isLeader()) return;
    this.#cancelRetry();
    this.#retryTimer = deps.timers.setTimeout(
      () => {
        this.#retryTimer = undefined;
        if (isLeader() && !lifecycle.isDisposed) this.#enqueue(true, attempt + 1);
      },
      backoffDelay(attempt, { random: deps.random }),
    );
  }

  #cancelRetry(): void {
    if (this.#retryTimer === undefined) return;
    this.#options.deps.timers.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }
}
