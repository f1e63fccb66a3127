import { EntryState, isFinalState, type OutboxEntry } from "../outbox/entry";
import type { EntryAction } from "../outbox/reducer";
import { outcomeContext } from "../outcome/context";
import type { DeliverySignal, ServerKind } from "../outcome/delivery-signal";
import type { Verdict } from "../outcome/verdict";
import type { ThreadRegistry } from "../thread/thread-registry";
import { buildBodyFor } from "./batch-body";
import { verdictOf } from "./delivery-step";
import type { EntryBook } from "./entry-book";
import { hydratedSignal, withToolEvidence } from "./thread-evidence";

/**
 * The answer that sends for a batch: the last answered (latest `createdAt`, then
 * the greater key), decided from stored fields alone so every tab decides alike.
 */
function lastAnswered(members: readonly OutboxEntry[]): OutboxEntry {
  return members.reduce((last, member) =>
    member.createdAt > last.createdAt || (member.createdAt === last.createdAt && member.key > last.key)
      ? member
      : last,
  );
}

const SETTLING: ReadonlySet<string> = new Set(["applied", "elsewhere", "lost", "needs_user"]);

/*
 * The answers to one run's questions travel in one request:
 *
 *   answer 1 ─▶ held ┐
 *   answer 2 ─▶ held ┴─ all in ─▶ sealed: the last answered sends (its key, one
 *                                 body with every answer); the others follow it
 *   the sender's progress ─▶ mirrored on the followers (sending, retry_wait, stalled…)
 *   the sender's verdict ─▶ each follower's own, read from the same signal
 */
export class BatchDelivery {
  readonly #book: EntryBook;
  readonly #threads: ThreadRegistry;
  readonly #sealing = new Map<string, Promise<void>>();

  constructor(book: EntryBook, threads: ThreadRegistry) {
    this.#book = book;
    this.#threads = threads;
  }

  /** Every answer of `entry`'s run in interrupt order, or undefined while one is missing. */
  members(entry: OutboxEntry): OutboxEntry[] | undefined {
    const batch = entry.batch;
    if (!batch || entry.state !== EntryState.held) return undefined;
    const ids = batch.interruptIds.join();
    const members: OutboxEntry[] = [];
    for (const interruptId of batch.interruptIds) {
      const member = [...this.#book.values()].find(
        (candidate) =>
          candidate.threadId === entry.threadId &&
          candidate.interruptId === interruptId &&
          candidate.batch?.interruptIds.join() === ids &&
          // A settled answer of an earlier batch of the same questions is not a member.
          !isFinalState(candidate.state),
      );
      if (!member) return undefined;
      members.push(member);
    }
    return members;
  }

  /**
   * Seals the batch, followers first. One seal of a batch at a time: two begun together
   * would each seal the other's sender to itself, and neither answer would go.
   */
  seal(entry: OutboxEntry, serverKind: ServerKind | undefined, at: number): Promise<OutboxEntry | undefined> {
    const batch = `${entry.threadId}\u0000${entry.batch?.interruptIds.join() ?? entry.key}`;
    const before = this.#sealing.get(batch) ?? Promise.resolve();
    const run = before.then(() => this.#sealNow(this.#book.get(entry.key) ?? entry, serverKind, at));
    // The chain only orders the seals: the caller awaits `run` and gets its failure.
    const done = run.then(
      () => {},
      () => {},
    );
    this.#sealing.set(batch, done);
    void done.then(() => {
      if (this.#sealing.get(batch) === done) this.#sealing.delete(batch);
    });
    return run;
  }

  async #sealNow(
    entry: OutboxEntry,
    serverKind: ServerKind | undefined,
    at: number,
  ): Promise<OutboxEntry | undefined> {
    const members = this.members(entry);
    if (!members) return entry;
    // An answer already sending for the batch keeps sending; else the sender is chosen from
    // what is stored, so two tabs sealing at once choose alike.
    const sending = members.find(
      (member) => member.state !== EntryState.held && member.batch?.sendsWith === undefined,
    );
    const sender = sending ?? lastAnswered(members);
    let body = sending?.body;
    if (body === undefined) {
      const built = serverKind === undefined ? undefined : await buildBodyFor(sender, members, serverKind);
      body = built?.ok ? built.body : "";
    }
    for (const member of members) {
      if (member.key === sender.key) continue;
      const action = { type: "sealed", runId: sender.runId, body, sendsWith: sender.key, at } as const;
      await this.#commitSeal(member.key, action);
    }
    if (!sending) await this.#commitSeal(sender.key, { type: "sealed", runId: sender.runId, body, at });
    return this.#book.get(entry.key) ?? entry;
  }

  /** A seal step; refused by another writer: once more, from what is stored now. */
  async #commitSeal(key: string, action: Extract<EntryAction, { type: "sealed" }>): Promise<void> {
    const sealed = await this.#book.commit(key, action);
    if (sealed?.state === EntryState.held) await this.#book.commit(key, action);
  }

  /** Each follower's own verdict from the sender's signal, or the sender's where its own would not settle. */
  followerVerdicts(
    senderKey: string,
    verdict: Verdict,
    signal: DeliverySignal | undefined,
    serverKind: ServerKind,
  ): Array<[string, Verdict]> {
    const verdicts: Array<[string, Verdict]> = [];
    const sender = this.#book.get(senderKey);
    // The sender's reason to read the thread holds for the followers, whose mirrored copy may lag.
    const cutOff = sender !== undefined && outcomeContext(sender, serverKind).cutOffInBatch === true;
    for (const follower of this.#book.followersOf(senderKey)) {
      if (isFinalState(follower.state)) continue;
      // Read for the follower's own tool call.
      const seen =
        signal?.type === "hydrated"
          ? hydratedSignal(this.#threads, follower, serverKind)
          : signal?.type === "run-finished" && serverKind === "degraded"
            ? withToolEvidence(this.#threads, this.#book, follower, signal)
            : signal;
      const own = seen && verdictOf(follower, seen, serverKind, cutOff ? { cutOffInBatch: true } : {});
      verdicts.push([follower.key, own && SETTLING.has(own.kind) ? own : verdict]);
    }
    return verdicts;
  }
}
