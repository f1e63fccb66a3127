import { type EntryState, type OutboxEntry, SETTLED_STATES } from "./entry";

/**
 * How long an entry with a settled verdict stays after it settled: long enough
 * for every tab and a reload to show the verdict, short enough that storage and
 * the in-memory list stay proportional to what is live.
 */
export const FINAL_ENTRY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Verdicts that need nothing more from the person. `lost` and `needs_user`
 * keep an answer the person still has to act on: they stay until discarded.
 */
const PRUNABLE: ReadonlySet<EntryState> = new Set(SETTLED_STATES);

/** True once `entry` settled (applied, elsewhere, expired) more than `windowMs` ago. */
export function isPrunable(entry: OutboxEntry, now: number, windowMs = FINAL_ENTRY_RETENTION_MS): boolean {
  return PRUNABLE.has(entry.state) && entry.updatedAt + windowMs <= now;
}

/**
 * Retention: deletes (through `remove`) the entries settled longer ago than the
 * window. Never one without a verdict; `lost` and `needs_user` wait for `discard`.
 */
export async function pruneSettled(
  entries: readonly OutboxEntry[],
  now: number,
  windowMs: number | undefined,
  remove: (key: string) => Promise<void>,
): Promise<void> {
  for (const entry of entries) {
    if (isPrunable(entry, now, windowMs)) await remove(entry.key);
  }
}
