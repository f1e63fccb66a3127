import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import { pruneSettled } from "../outbox/retention";
import type { DeliveryDeps, DeliveryEngineOptions } from "./delivery-options";
import { DeliverySchedule } from "./delivery-schedule";
import { EntryBook } from "./entry-book";
import { loadSender, type SenderModule } from "./load-sender";
import { waitsOnNetwork } from "./network-wait";
import type { Sender } from "./sender";

/*
 * The namespace's deliveries: the entries (EntryBook), when each one's delivery
 * runs (DeliverySchedule), and the delivery itself (DeliveryRun, which asks the
 * pure `deliveryStep` for every decision). Only the tab that sends activates it.
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

export class DeliveryEngine {
  readonly #options: DeliveryEngineInit;
  readonly #book: EntryBook;
  /** Built by the first `activate`, in the tab that sends. */
  #sender: Sender | undefined;
  readonly #schedule: DeliverySchedule;
  /**
   * The entry whose `sending` the start's one transaction wrote, until its
   * delivery POSTs it with no write of its own (or delivery stops first). Only
   * that very object qualifies: an entry replaced since is delivered as stored.
   */
  #heldStarted: OutboxEntry | undefined;
  /** Aborted by `deactivate`: the requests, sleeps and a load of the sending code of this activation. */
  #abort = new AbortController();
  #active = false;

  constructor(options: DeliveryEngineInit) {
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
  }

  /** The namespace's entries, oldest first. A snapshot: later changes make a new array. */
  entries(): readonly OutboxEntry[] {
    return this.#book.sorted();
  }

  /** One thread's entries, in no order. */
  entriesOf(threadId: string): OutboxEntry[] {
    return this.#book.ofThread(threadId);
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
    if (options.sendAfterThisTask) this.#schedule.wakeAfter(entry.key, 0);
    else this.schedule(entry.key);
    // Another tab answered a question of a batch: the sending tab seals it (the
    // answering tab, if it is not the sender, may not write delivery state).
    const adopted = this.#book.get(entry.key);
    if (!options.sendAfterThisTask && adopted?.state === EntryState.held)
      this.#track(this.sealBatch(adopted));
  }

  forget(key: string): void {
    this.#schedule.cancel(key);
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
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    const activation = this.#abort.signal;
    if (!this.#sender) {
      const module = await loadSender(this.#options.deps.loadSender);
      // Stopped (or activated by another call) while the code loaded.
      if (this.#active || activation.aborted) return;
      this.#sender ??= module.createSender({
        options: this.#options,
        book: this.#book,
        active: () => this.#active,
        abortSignal: () => this.#abort.signal,
        schedule: (key) => this.schedule(key),
      });
    }
    this.#active = true;
    this.#book.setWritable(true);
    this.#schedule.start();
    for (const entry of this.entries()) {
      // An entry found in flight (the page that sent it is gone) is recovered by
      // its delivery's first write, the resend's `sending`: one write before it goes.
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
    // A write queued before this point must not land after a new leader's.
    this.#book.setWritable(false);
    // A start read's attempt not yet handed to fetch is resent through recovery, as after a reload.
    this.#heldStarted = undefined;
    this.#sender?.transport.reset();
    this.#abort.abort(new OutboxError(ErrorKind.disposed, "Delivery stopped."));
    this.#schedule.stop();
  }

  /** Some answer waits only on the network (a settled one never does: only the open ones are read). */
  networkWaits(): boolean {
    return this.#book.open().some(waitsOnNetwork);
  }

  /**
   * The browser came back online or visible: entries that wait only because the
   * network failed go now, and stalled ones resume with a fresh budget. Entries
   * waiting on a server's `Retry-After` (or any other server answer) keep their
   * time: a hint never overrides the server.
   */
  retryNetworkWaitsNow(): void {
    for (const entry of this.#book.open()) {
      if (waitsOnNetwork(entry) || (entry.state === EntryState.stalled && !entry.batch?.sendsWith)) {
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

  /**
   * The server kind became known (or known again): never-sent entries, which
   * wait for it, go. One waiting on a timer (a storage backoff, a send after
   * this task) keeps its time.
   */
  kindChanged(): void {
    for (const entry of [...this.#book.values()]) {
      if (!entry.everSent && !this.#schedule.waiting(entry.key)) this.schedule(entry.key);
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

  /** After a durable write: storage works again for it, and the answers it sends for follow it. */
  #committed(entry: OutboxEntry): void {
    this.#schedule.landed(entry.key);
    for (const follower of this.#book.behind(entry)) {
      this.#track(
        this.#book.commit(follower.key, { type: "follow", leader: entry, at: this.#options.deps.now() }),
      );
    }
  }

  /** A promise nobody awaits: its failure goes to the error sink, never unhandled. */
  #track(promise: Promise<unknown>): void {
    promise.catch((error: unknown) => this.#options.onError?.(error));
  }

  /** One delivery; the start read's attempt, if this is its entry, POSTs with no write of its own. */
  async #deliver(key: string): Promise<void> {
    const sender = this.#sender;
    if (!sender) return;
    const started = this.#heldStarted !== undefined && this.#heldStarted === this.#book.get(key);
    if (started) this.#heldStarted = undefined;
    await sender.runner.deliver(key, started);
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

  /** Retention (retention.ts): deleted here and in every tab (the removal is announced). */
  async prune(): Promise<void> {
    if (!this.#active) return;
    const { store, deps, finalRetentionMs } = this.#options;
    await pruneSettled(this.entries(), deps.now(), finalRetentionMs, async (key) => {
      await store.delete(key);
      this.forget(key);
    });
  }
}
