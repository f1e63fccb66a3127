import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { CommitGroup } from "../outbox/commit-group";
import { isFinalState, type OutboxEntry } from "../outbox/entry";
import { compareEntries, type OutboxStore, revisionOf } from "../outbox/outbox-store";
import { type EntryAction, reduceEntry } from "../outbox/reducer";
import { withEntry, withoutEntry } from "../outbox/sorted-entries";

export interface EntryBookOptions {
  readonly namespace: string;
  readonly store: OutboxStore;
  /**
   * Called after every committed change with the namespace's entries (oldest
   * first) and the key the change touched, with its new entry (`undefined` once
   * it is gone). No key: every entry may have changed (a read of storage).
   */
  readonly publish: (entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry) => void;
  /** After a change of this tab's was written durably. */
  readonly onCommitted?: (entry: OutboxEntry) => void;
}

/**
 * The namespace's entries as last written, and the one way to change them: a
 * reducer step written durably, one write per key at a time.
 */
export class EntryBook {
  readonly #options: EntryBookOptions;
  readonly #entries = new Map<string, OutboxEntry>();
  /**
   * The same entries in storage order, replaced (never mutated) on each change:
   * what `publish` hands out. Kept in step with `#entries` by binary search, so a
   * change costs no sort and no pass over the other entries.
   */
  #sorted: readonly OutboxEntry[] = [];
  /** The entries not final, and each thread's: what a check on every answer reads, not the settled rest. */
  readonly #open = new Map<string, OutboxEntry>();
  readonly #threads = new Map<string, Map<string, OutboxEntry>>();
  /** Per key, the last write queued: writes to one entry run one after another. */
  readonly #writing = new Map<string, Promise<unknown>>();
  /**
   * False while this tab must not change delivery state (it is not the sender,
   * or `clear` is wiping): a commit then writes nothing and rejects `disposed`.
   */
  #writable = true;

  /** Transitions of many entries at once share one strict transaction. */
  readonly #commits: CommitGroup;

  constructor(options: EntryBookOptions) {
    this.#options = options;
    this.#commits = new CommitGroup(options.store);
  }

  get namespace(): string {
    return this.#options.namespace;
  }

  get(key: string): OutboxEntry | undefined {
    return this.#entries.get(key);
  }

  values(): IterableIterator<OutboxEntry> {
    return this.#entries.values();
  }

  /** The answers sent in `key`'s request besides its own (its batch's other entries). */
  followersOf(key: string): OutboxEntry[] {
    const followers: OutboxEntry[] = [];
    for (const entry of this.#entries.values()) if (entry.batch?.sendsWith === key) followers.push(entry);
    return followers;
  }

  /**
   * After the sender's write: the followers whose mirrored progress is behind it.
   * Here, not with the batches' sending code: every commit asks, in a tab whose
   * sending code has not loaded yet too.
   */
  behind(sender: OutboxEntry): OutboxEntry[] {
    if (!sender.batch || sender.batch.sendsWith !== undefined || isFinalState(sender.state)) return [];
    return this.followersOf(sender.key).filter(
      (follower) =>
        !isFinalState(follower.state) &&
        (follower.state !== sender.state ||
          follower.attempts !== sender.attempts ||
          follower.nextAttemptAt !== sender.nextAttemptAt ||
          follower.lastError !== sender.lastError),
    );
  }

  /** The namespace's entries, oldest first. A snapshot: later changes make a new array. */
  sorted(): readonly OutboxEntry[] {
    return this.#sorted;
  }

  /** The entries not in a final state. */
  open(): OutboxEntry[] {
    return [...this.#open.values()];
  }

  /** The entries of one thread. */
  ofThread(threadId: string): OutboxEntry[] {
    return [...(this.#threads.get(threadId)?.values() ?? [])];
  }

  /** Holds `entry` for `key`, or none, in the map and in the views above. */
  #hold(key: string, entry?: OutboxEntry): void {
    this.#threads.get(this.#entries.get(key)?.threadId ?? "")?.delete(key);
    this.#open.delete(key);
    this.#entries.delete(key);
    if (!entry) return;
    this.#entries.set(key, entry);
    if (!isFinalState(entry.state)) this.#open.set(key, entry);
    this.#threads.set(entry.threadId, (this.#threads.get(entry.threadId) ?? new Map()).set(key, entry));
  }

  /**
   * (Re)reads the namespace's entries from storage. Storage is the source of
   * truth, except for an entry another tab reported while the read was under
   * way: the higher revision of the two wins. An entry no longer stored is
   * dropped (discarded, or wiped by `clear` in any tab): nothing comes back.
   */
  async load(): Promise<void> {
    this.hold(await this.#options.store.listByNamespace(this.#options.namespace));
  }

  /** Holds entries read from storage (by `load`, or by the start's one transaction), as `load` does. */
  hold(stored: readonly OutboxEntry[]): void {
    const known = new Map(this.#entries);
    this.#entries.clear();
    this.#open.clear();
    this.#threads.clear();
    for (const entry of stored) {
      const mirrored = known.get(entry.key);
      this.#hold(entry.key, mirrored && isNewer(mirrored, entry) ? mirrored : entry);
    }
    this.#sorted = [...this.#entries.values()].sort(compareEntries);
    this.#options.publish(this.#sorted);
  }

  /** Adds entries read apart (the settled ones, after the start); entries held stay as they are. */
  holdMore(stored: readonly OutboxEntry[]): void {
    const added = stored.filter((entry) => !this.#entries.has(entry.key));
    if (added.length === 0) return;
    for (const entry of added) this.#hold(entry.key, entry);
    this.#sorted = [...this.#entries.values()].sort(compareEntries);
    this.#options.publish(this.#sorted);
  }

  /** Holds `entry` (replacing its key's current one) and publishes the change. */
  set(entry: OutboxEntry): void {
    this.#hold(entry.key, entry);
    this.#sorted = withEntry(this.#sorted, entry);
    this.#options.publish(this.#sorted, entry.key, entry);
  }

  /** Drops the key; true when it was held. */
  delete(key: string): boolean {
    const known = this.#entries.get(key);
    if (known === undefined) return false;
    this.#hold(key);
    this.#sorted = withoutEntry(this.#sorted, known);
    this.#options.publish(this.#sorted, key);
    return true;
  }

  /** Reduces `actions` in turn and writes the result once (one step, or a recovery and its step). */
  commit(key: string, ...actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    return this.queueWrite(key, () => this.commitNow(key, actions));
  }

  /** Resolves once every write queued for `key` so far has settled. */
  async settled(key: string): Promise<void> {
    await this.#writing.get(key);
  }

  /** Stops (false) or allows (true) writes; queued writes that have not started are refused. */
  setWritable(writable: boolean): void {
    this.#writable = writable;
  }

  /** Resolves once every write queued so far, for every key, has settled. */
  async drain(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  /**
   * Runs `write` once the key's earlier writes are done, so each one reduces
   * from the entry the previous one stored and the last one queued wins.
   */
  queueWrite<T>(key: string, write: () => Promise<T>): Promise<T> {
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

  /** Reduces and writes now; call it inside `queueWrite`. */
  async commitNow(key: string, actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    let next = entry;
    for (const action of actions) next = reduceEntry(next, action);
    if (next === entry) return entry;
    if (!this.#writable) {
      throw new OutboxError(ErrorKind.disposed, "This tab no longer sends; the change was not written.");
    }
    // Compare-and-set: a change computed from a copy another writer has since
    // replaced (another tab, a leader that lost its lock) is not written; the
    // stored entry is taken instead. A wiped entry is dropped, never revived.
    const result = await this.#commits.commit(next);
    if (result.committed) {
      this.set(result.entry);
      this.#options.onCommitted?.(result.entry);
      return result.entry;
    }
    if (result.current === undefined) {
      this.delete(key);
      return undefined;
    }
    this.set(result.current);
    return result.current;
  }

  /**
   * Holds a copy another tab reported unless this one is at least as new (by
   * revision; a tie keeps what is held). True when it was taken.
   */
  mirror(entry: OutboxEntry): boolean {
    const known = this.#entries.get(entry.key);
    if (known && !isNewer(entry, known)) return false;
    this.set(entry);
    return true;
  }
}

/** `a` is a later revision of the entry than `b`. */
function isNewer(a: OutboxEntry, b: OutboxEntry): boolean {
  return revisionOf(a) > revisionOf(b);
}
