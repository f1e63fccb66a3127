import type { OutboxEntry } from "../outbox/entry";

export interface EntryChanges {
  readonly changed: readonly OutboxEntry[];
  /** Keys present before and gone now. */
  readonly removed: readonly string[];
}

export interface EntryChangeTracker {
  /** Compares with the previous call; call it on every publish, adopted ones too, so they are not echoed. */
  observe(entries: readonly OutboxEntry[]): EntryChanges;
  /** The same for one key (`undefined`: gone), in constant time. */
  observeEntry(key: string, entry: OutboxEntry | undefined): EntryChanges;
}

const NOTHING: EntryChanges = { changed: [], removed: [] };

/** What a reducer step can move; `updatedAt` alone misses two steps in one millisecond. */
function signature(entry: OutboxEntry): string {
  const { cursor, lastError } = entry;
  return [
    entry.updatedAt,
    entry.state,
    entry.attempts,
    entry.nextAttemptAt,
    entry.everSent,
    cursor.runId,
    cursor.lastSeq,
    cursor.acked,
    lastError?.kind,
    lastError?.code,
    entry.verdictDetail,
  ].join("\u0000");
}

const moved = (before: OutboxEntry | undefined, entry: OutboxEntry) =>
  before === undefined || (before !== entry && signature(before) !== signature(entry));

/** Turns the engine's published entry list into what other tabs need: the entries that moved. */
export function createEntryChangeTracker(): EntryChangeTracker {
  let known = new Map<string, OutboxEntry>();
  return {
    observe(entries) {
      const next = new Map(entries.map((entry) => [entry.key, entry]));
      const changed = entries.filter((entry) => moved(known.get(entry.key), entry));
      const removed = [...known.keys()].filter((key) => !next.has(key));
      known = next;
      return { changed, removed };
    },
    observeEntry(key, entry) {
      const before = known.get(key);
      if (entry === undefined) {
        if (!known.delete(key)) return NOTHING;
        return { changed: [], removed: [key] };
      }
      known.set(key, entry);
      return moved(before, entry) ? { changed: [entry], removed: [] } : NOTHING;
    },
  };
}
