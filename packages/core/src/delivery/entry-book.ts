import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { CommitGroup } from "../outbox/commit-group";
import { isFinalState, type OutboxEntry } from "../outbox/entry";
import { compareEntries, type OutboxStore, revisionOf } from "../outbox/outbox-store";
import { type EntryAction, reduceEntry } from "../outbox/reducer";
import { withEntry, withoutEntry } from "../outbox/sorted-entries";

export interface EntryBookOptions {
  readonly namespace: string;
  readonly store: OutboxStore;
  /** After every committed change: the entries, the key touched and its new entry (none: a storage read). */
  readonly publish: (entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry) => void;
  readonly onCommitted?: (entry: OutboxEntry) => void;
}

/** The entries as last written; changed only by a durable reducer step, one write per key at a time. */
export class EntryBook {
  readonly #options: EntryBookOptions;
  readonly #entries = new Map<string, OutboxEntry>();
  /** Storage order, replaced on each change and kept in step by binary search: no sort per change. */
  #sorted: readonly OutboxEntry[] = [];
  /** The entries not final, and each thread's: what a check on every answer reads. */
  readonly #open = new Map<string, OutboxEntry>();
  readonly #threads = new Map<string, Map<string, OutboxEntry>>();
  readonly #writing = new Map<string, Promise<unknown>>();
  /** False while this tab must not change delivery state: a commit then rejects `disposed`. */
  #writable = true;

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

  followersOf(key: string): OutboxEntry[] {
    const followers: OutboxEntry[] = [];
    for (const entry of this.#entries.values()) if (entry.batch?.sendsWith === key) followers.push(entry);
    return followers;
  }

  /** Followers behind the sender's write; here so a tab without the sending code asks too. */
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

  sorted(): readonly OutboxEntry[] {
    return this.#sorted;
  }

  open(): OutboxEntry[] {
    return [...this.#open.values()];
  }

  ofThread(threadId: string): OutboxEntry[] {
    return [...(this.#threads.get(threadId)?.values() ?? [])];
  }

  #hold(key: string, entry?: OutboxEntry): void {
    this.#threads.get(this.#entries.get(key)?.threadId ?? "")?.delete(key);
    this.#open.delete(key);
    this.#entries.delete(key);
    if (!entry) return;
    this.#entries.set(key, entry);
    if (!isFinalState(entry.state)) this.#open.set(key, entry);
    this.#threads.set(entry.threadId, (this.#threads.get(entry.threadId) ?? new Map()).set(key, entry));
  }

  /** (Re)reads storage; another tab's newer revision wins, and a wiped entry never comes back. */
  async load(): Promise<void> {
    this.hold(await this.#options.store.listByNamespace(this.#options.namespace));
  }

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

  holdMore(stored: readonly OutboxEntry[]): void {
    const added = stored.filter((entry) => !this.#entries.has(entry.key));
    if (added.length === 0) return;
    for (const entry of added) this.#hold(entry.key, entry);
    this.#sorted = [...this.#entries.values()].sort(compareEntries);
    this.#options.publish(this.#sorted);
  }

  set(entry: OutboxEntry): void {
    this.#hold(entry.key, entry);
    this.#sorted = withEntry(this.#sorted, entry);
    this.#options.publish(this.#sorted, entry.key, entry);
  }

  delete(key: string): boolean {
    const known = this.#entries.get(key);
    if (known === undefined) return false;
    this.#hold(key);
    this.#sorted = withoutEntry(this.#sorted, known);
    this.#options.publish(this.#sorted, key);
    return true;
  }

  commit(key: string, ...actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    return this.queueWrite(key, () => this.commitNow(key, actions));
  }

  async settled(key: string): Promise<void> {
    await this.#writing.get(key);
  }

  setWritable(writable: boolean): void {
    this.#writable = writable;
  }

  async drain(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  /** Runs `write` after the key's earlier writes, so each reduces from what the previous one stored. */
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

  async commitNow(key: string, actions: readonly EntryAction[]): Promise<OutboxEntry | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    let next = entry;
    for (const action of actions) next = reduceEntry(next, action);
    if (next === entry) return entry;
    if (!this.#writable) {
      throw new OutboxError(ErrorKind.disposed, "This tab no longer sends; the change was not written.");
    }
    // Compare-and-set: a change computed from a replaced copy is not written; the stored
    // entry is taken instead. A wiped entry is dropped, never revived.
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

  /** Takes another tab's copy unless the held one is at least as new by revision. */
  mirror(entry: OutboxEntry): boolean {
    const known = this.#entries.get(entry.key);
    if (known && !isNewer(entry, known)) return false;
    this.set(entry);
    return true;
  }
}

function isNewer(a: OutboxEntry, b: OutboxEntry): boolean {
  return revisionOf(a) > revisionOf(b);
}
