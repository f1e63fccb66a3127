import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { isPrunable } from "../outbox/retention";
import { BatchDelivery } from "./batch-delivery";
import type { DeliveryEngineOptions } from "./delivery-options";
import { DeliveryRun } from "./delivery-run";
import { DeliverySchedule } from "./delivery-schedule";
import { DeliveryTransport } from "./delivery-transport";
import { EntryBook } from "./entry-book";
import { waitsOnNetwork } from "./network-wait";

/*
 * The namespace's deliveries: the entries (EntryBook), when each runs (DeliverySchedule),
 * and the delivery (DeliveryRun, over its transport and batches). Every tab keeps the
 * entries; only the tab that holds the lock activates the sending.
 */

export class DeliveryEngine {
  readonly #options: DeliveryEngineOptions;
  readonly #book: EntryBook;
  readonly #transport: DeliveryTransport;
  readonly #batches: BatchDelivery;
  readonly #runner: DeliveryRun;
  readonly #schedule: DeliverySchedule;
  /** The entry the start's transaction wrote `sending`, POSTed with no write if still that object. */
  #heldStarted: OutboxEntry | undefined;
  #abort = new AbortController();
  #active = false;

  constructor(options: DeliveryEngineOptions) {
    this.#options = options;
    this.#book = new EntryBook({
      namespace: options.namespace,
      store: options.store,
      publish: options.publish,
      onCommitted: (entry) => this.#committed(entry),
    });
    this.#schedule = new DeliverySchedule({
      book: this.#book,
      deps: options.deps,
      deliver: (key) => this.#deliver(key),
      onError: (error) => this.#options.onError?.(error),
    });
    const context = {
      options,
      book: this.#book,
      active: () => this.#active,
      abortSignal: () => this.#abort.signal,
    };
    this.#transport = new DeliveryTransport(context);
    this.#batches = new BatchDelivery(this.#book, options.threads);
    this.#runner = new DeliveryRun({
      ...context,
      schedule: (key) => this.schedule(key),
      transport: this.#transport,
      batches: this.#batches,
    });
  }

  entries(): readonly OutboxEntry[] {
    return this.#book.sorted();
  }

  entriesOf(threadId: string): OutboxEntry[] {
    return this.#book.ofThread(threadId);
  }

  load(): Promise<void> {
    this.#heldStarted = undefined;
    return this.#book.load();
  }

  /** Holds what a start read returned; `started` is the entry it wrote `sending`. Does not send. */
  hold(entries: readonly OutboxEntry[], started?: OutboxEntry): void {
    this.#book.hold(entries);
    this.#heldStarted = started;
  }

  /** The settled entries, read after the start so they never delay it. */
  holdSettled(entries: readonly OutboxEntry[]): void {
    this.#book.holdMore(entries);
  }

  /** Adopts an entry written elsewhere; `sendAfterThisTask` lets the writing code go on first. */
  adopt(entry: OutboxEntry, options: { readonly sendAfterThisTask?: boolean } = {}): void {
    if (entry.namespace !== this.#options.namespace) return;
    // Copies of one entry are ordered by the revision the store gave them, never by clocks.
    if (!this.#book.mirror(entry)) return;
    if (!this.#active) return;
    if (options.sendAfterThisTask) this.#schedule.wakeAfter(entry.key, 0);
    else this.schedule(entry.key);
    // The answering tab may not write delivery state: the sending tab seals the batch.
    const adopted = this.#book.get(entry.key);
    if (!options.sendAfterThisTask && adopted?.state === EntryState.held)
      this.#track(this.sealBatch(adopted));
  }

  forget(key: string): void {
    this.#schedule.cancel(key);
    this.#book.delete(key);
  }

  /** Starts sending: in-flight entries continue with the same key and body, due retries go. */
  async activate(): Promise<void> {
    if (this.#active) return;
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    this.#active = true;
    this.#book.setWritable(true);
    this.#schedule.start();
    for (const entry of this.entries()) {
      // An in-flight entry is recovered by its delivery's first write; a batch whose
      // seal a reload cut short is sealed now.
      this.schedule(entry.key);
      if (entry.state === EntryState.held) this.#track(this.sealBatch(entry));
    }
    // Retention never stands in the way of sending.
    await this.prune().catch((error: unknown) => this.#options.onError?.(error));
  }

  deactivate(): void {
    this.#active = false;
    // A write queued before this point must not land after a new leader's.
    this.#book.setWritable(false);
    // A start read's attempt not yet handed to fetch is resent through recovery, as after a reload.
    this.#heldStarted = undefined;
    this.#transport.reset();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    this.#schedule.stop();
  }

  networkWaits(): boolean {
    return this.#book.open().some(waitsOnNetwork);
  }

  /**
   * Online or visible again: network waits go now, stalled entries resume with a fresh budget.
   * A server's `Retry-After` keeps its time: a hint never overrides the server.
   */
  retryNetworkWaitsNow(): void {
    for (const entry of this.#book.open()) {
      if (waitsOnNetwork(entry) || (entry.state === EntryState.stalled && !entry.batch?.sendsWith)) {
        this.#track(this.retryNow(entry.key));
      }
    }
  }

  async settleClosed(threadId: string): Promise<void> {
    if (this.#active) await this.#runner.settleClosed(threadId);
  }

  async retryNow(key: string): Promise<void> {
    const sender = this.#book.get(key)?.batch?.sendsWith ?? key;
    await this.#book.commit(sender, { type: "retry-now", at: this.#options.deps.now() });
    this.schedule(sender);
  }

  /** The server kind is known (again): never-sent entries go, unless waiting on a timer. */
  kindChanged(): void {
    for (const entry of [...this.#book.values()]) {
      if (!entry.everSent && !this.#schedule.waiting(entry.key)) this.schedule(entry.key);
    }
  }

  /** Once the run's questions are all answered, `entry` (the last) sends them all in one body. */
  async sealBatch(entry: OutboxEntry): Promise<OutboxEntry> {
    if (!this.#active) return entry;
    const kind = this.#options.kindKnown() ? this.#options.serverKind() : undefined;
    const sealed = await this.#batches.seal(entry, kind, this.#options.deps.now());
    if (sealed && sealed !== entry && this.#active)
      this.#schedule.wakeAfter(sealed.batch?.sendsWith ?? sealed.key, 0);
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
    this.#schedule.schedule(key);
  }

  #committed(entry: OutboxEntry): void {
    this.#schedule.landed(entry.key);
    for (const follower of this.#book.behind(entry)) {
      this.#track(
        this.#book.commit(follower.key, { type: "follow", leader: entry, at: this.#options.deps.now() }),
      );
    }
  }

  #track(promise: Promise<unknown>): void {
    promise.catch((error: unknown) => this.#options.onError?.(error));
  }

  async #deliver(key: string): Promise<void> {
    const started = this.#heldStarted !== undefined && this.#heldStarted === this.#book.get(key);
    if (started) this.#heldStarted = undefined;
    await this.#runner.deliver(key, started);
  }

  drain(): Promise<void> {
    return this.#book.drain();
  }

  /** Reads storage again and schedules what it holds (lost follower messages, other tabs' changes). */
  async rescan(): Promise<void> {
    await this.load();
    if (!this.#active) return;
    for (const entry of this.entries()) this.schedule(entry.key);
    await this.prune();
  }

  async prune(): Promise<void> {
    if (!this.#active) return;
    const now = this.#options.deps.now();
    for (const entry of this.entries()) {
      if (!isPrunable(entry, now)) continue;
      await this.#options.store.delete(entry.key);
      this.forget(entry.key);
    }
  }
}
