import type { OutboxEntry } from "./entry";
import { compareEntries } from "./outbox-store";

/*
 * The outbox as published is an immutable array in storage order (oldest first,
 * ties by key). A delivery moves one entry at a time, several times per entry, so
 * re-sorting the whole list on every change is quadratic over a drain. These
 * helpers find the entry's slot by binary search and copy the array once: no
 * comparator runs over the other entries, and `createdAt` never changes, so an
 * updated entry stays where it was.
 */

/** The first index whose entry does not sort before `entry`. */
function lowerBound(sorted: readonly OutboxEntry[], entry: OutboxEntry): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const candidate = sorted[middle];
    if (candidate !== undefined && compareEntries(candidate, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where `entry`'s key sits in `sorted`, or -1. */
function indexOfEntry(sorted: readonly OutboxEntry[], entry: OutboxEntry): number {
  const index = lowerBound(sorted, entry);
  return sorted[index]?.key === entry.key ? index : -1;
}

/**
 * A new array holding `entry` in its place: replacing `previous` (the entry the
 * array holds under the same key), or inserted when there is none.
 */
export function withEntry(
  sorted: readonly OutboxEntry[],
  entry: OutboxEntry,
  previous: OutboxEntry | undefined,
): readonly OutboxEntry[] {
  if (previous !== undefined) {
    const at = indexOfEntry(sorted, previous);
    if (at >= 0 && compareEntries(previous, entry) === 0) {
      const next = sorted.slice();
      next[at] = entry;
      return next;
    }
    // A different position (a foreign copy with another `createdAt`): move it.
    return withEntry(withoutEntry(sorted, previous), entry, undefined);
  }
  const next = sorted.slice();
  next.splice(lowerBound(sorted, entry), 0, entry);
  return next;
}

/** A new array without `previous` (the entry the array holds under its key). */
export function withoutEntry(sorted: readonly OutboxEntry[], previous: OutboxEntry): readonly OutboxEntry[] {
  const at = indexOfEntry(sorted, previous);
  if (at < 0) return sorted;
  const next = sorted.slice();
  next.splice(at, 1);
  return next;
}

/** All of `entries` in storage order, as a new array. */
export function sortEntries(entries: Iterable<OutboxEntry>): readonly OutboxEntry[] {
  return [...entries].sort(compareEntries);
}
