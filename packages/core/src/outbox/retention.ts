import { type EntryState, type OutboxEntry, SETTLED_STATES } from "./entry";

/** How long a settled verdict stays: long enough for every tab and a reload to show it. */
export const FINAL_ENTRY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** `lost` and `needs_user` keep an answer the person must act on: they stay until discarded. */
const PRUNABLE: ReadonlySet<EntryState> = new Set(SETTLED_STATES);

/** True once `entry` settled (applied, elsewhere, expired) more than `windowMs` ago. */
export function isPrunable(entry: OutboxEntry, now: number, windowMs = FINAL_ENTRY_RETENTION_MS): boolean {
  return PRUNABLE.has(entry.state) && entry.updatedAt + windowMs <= now;
}
