import type { OutboxEntry } from "./entry";
import { compareEntries } from "./outbox-store";

/*
 * The published outbox is an immutable array in storage order. Re-sorting on every change is
 * quadratic over a drain: these find the slot by binary search and copy once (`createdAt` never
 * changes, so an updated entry stays in place).
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

/** A new array with `entry` in its place, replacing the entry with its key or inserted. */
export function withEntry(sorted: readonly OutboxEntry[], entry: OutboxEntry): readonly OutboxEntry[] {
  const at = lowerBound(sorted, entry);
  const next = sorted.slice();
  next.splice(at, sorted[at]?.key === entry.key ? 1 : 0, entry);
  return next;
}

/** A new array without `previous` (the entry the array holds under its key). */
export function withoutEntry(sorted: readonly OutboxEntry[], previous: OutboxEntry): readonly OutboxEntry[] {
  const at = lowerBound(sorted, previous);
  if (sorted[at]?.key !== previous.key) return sorted;
  const next = sorted.slice();
  next.splice(at, 1);
  return next;
}
