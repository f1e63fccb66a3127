import { isFinalState, type OutboxEntry, type OutboxState, type ReadonlyStore } from "@agui-outbox/core";

/**
 * Resolves with the entries once every one of them has a final verdict,
 * reporting each state change on the way (sending, retry_wait, stalled,
 * paused…). No timer of its own: the outbox's retry loop has the brakes, and a
 * stalled entry is resumed by it (online, visible, retry-now), never dropped.
 * An entry removed from the outbox (`clear()` at sign-out) no longer holds the
 * run open.
 */
export function settleEntries(
  outbox: ReadonlyStore<OutboxState>,
  keys: readonly string[],
  onProgress: (entry: OutboxEntry) => void,
): Promise<OutboxEntry[]> {
  const seen = new Map<string, string>();
  return new Promise((resolve) => {
    if (keys.length === 0) {
      resolve([]);
      return;
    }
    const check = (): boolean => {
      const entries = outbox.getState().entries;
      const mine = keys.map((key) => entries.find((entry) => entry.key === key));
      for (const entry of mine) {
        if (!entry || seen.get(entry.key) === entry.state) continue;
        seen.set(entry.key, entry.state);
        if (!isFinalState(entry.state)) onProgress(entry);
      }
      const present = mine.filter((entry): entry is OutboxEntry => entry !== undefined);
      if (!present.every((entry) => isFinalState(entry.state))) return false;
      resolve(present);
      return true;
    };
    if (check()) return;
    const unsubscribe = outbox.subscribe(() => {
      if (check()) unsubscribe();
    });
  });
}
