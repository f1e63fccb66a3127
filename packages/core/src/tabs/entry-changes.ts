import type { OutboxEntry } from "../outbox/entry";

/** What changed between two publishes of a namespace's entries. */
export interface EntryChanges {
  /** New entries and entries a reducer step moved since the last call. */
  readonly changed: readonly OutboxEntry[];
  /** Keys present before and gone now (discarded, cleared). */
  readonly removed: readonly string[];
}

export interface EntryChangeTracker {
  /**
   * Compares `entries` with the previous call and remembers them. Call it on
   * every publish, including the ones caused by another tab's message, so an
   * adopted entry is not sent back as a change of ours.
   */
  observe(entries: readonly OutboxEntry[]): EntryChanges;
  /**
   * The same for a change to one key only (`entry` undefined: it is gone), in
   * constant time: what a delivery step or an adopted message publishes.
   */
  observeEntry(key: string, entry: OutboxEntry | undefined): EntryChanges;
}

const NOTHING: EntryChanges = { changed: [], removed: [] };

/**
 * What a reducer step can move. `updatedAt` alone is not enough: two steps in
 * one millisecond (a burst of stream events) keep it.
 */
function signature(entry: OutboxEntry): string {
  const { cursor } = entry;
  return [
    entry.updatedAt,
    entry.state,
    entry.attempts,
    entry.nextAttemptAt,
    entry.everSent,
    cursor.runId,
    cursor.lastSeq,
    cursor.acked,
    entry.lastError?.kind,
    entry.lastError?.code,
    entry.verdictDetail,
  ].join("\u0000");
}

/** `entry` is new, or a step moved it since `before`. */
function moved(before: OutboxEntry | undefined, entry: OutboxEntry): boolean {
  return before === undefined || (before !== entry && signature(before) !== signature(entry));
}

/**
 * The delivery engine publishes the whole entry list after each commit; other
 * tabs only need what changed. Comparing each key's progress turns the list
 * into `entry-changed` / `entries-removed` messages. A commit touches one key,
 * so it is compared alone; only a read of storage compares them all.
 */
export function createEntryChangeTracker(): EntryChangeTracker {
  let known = new Map<string, OutboxEntry>();
  return {
    observe(entries) {
      const next = new Map<string, OutboxEntry>();
      const changed: OutboxEntry[] = [];
      for (const entry of entries) {
        next.set(entry.key, entry);
        if (moved(known.get(entry.key), entry)) changed.push(entry);
      }
      const removed = [...known.keys()].filter((key) => !next.has(key));
      known = next;
      return { changed, removed };
    },
    observeEntry(key, entry) {
      const before = known.get(key);
      if (entry === undefined) {
        if (before === undefined) return NOTHING;
        known.delete(key);
        return { changed: [], removed: [key] };
      }
      known.set(key, entry);
      return moved(before, entry) ? { changed: [entry], removed: [] } : NOTHING;
    },
  };
}
