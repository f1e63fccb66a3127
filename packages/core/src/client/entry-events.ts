import { isFinalState, type OutboxEntry } from "../outbox/entry";
import type { ReadonlyStore } from "../thread/thread-registry";
import type { OutboxState } from "./outbox-state";

/** What happened to one entry, for an app reacting to outcomes without diffing the outbox. */
export type EntryEvent =
  /** A new answer is in the outbox (this tab's `answer()`, another tab's, or a reload's recovery). */
  | { readonly type: "added"; readonly entry: OutboxEntry }
  /** The entry moved to another state that is not a verdict (sending, retry_wait, …). */
  | { readonly type: "changed"; readonly entry: OutboxEntry; readonly previous: OutboxEntry }
  /** The entry reached a verdict: applied, elsewhere, lost, needs_user, expired. */
  | { readonly type: "verdict"; readonly entry: OutboxEntry; readonly previous: OutboxEntry | undefined }
  /** The entry left the outbox (dismissed, or wiped on sign-out). */
  | { readonly type: "removed"; readonly entry: OutboxEntry };

/**
 * Calls `listener` for each entry event from the moment of subscribing (no replay); returns the
 * unsubscribe. `watchEntries(client.outbox, (event) => …)`.
 */
export function watchEntries(
  outbox: ReadonlyStore<OutboxState>,
  listener: (event: EntryEvent) => void,
): () => void {
  let known = new Map(outbox.getState().entries.map((entry) => [entry.key, entry]));
  return outbox.subscribe((state) => {
    const next = new Map(state.entries.map((entry) => [entry.key, entry]));
    const events: EntryEvent[] = [];
    for (const [key, entry] of next) {
      const previous = known.get(key);
      if (previous === entry) continue;
      if (!previous) {
        events.push(
          isFinalState(entry.state) ? { type: "verdict", entry, previous } : { type: "added", entry },
        );
        continue;
      }
      if (previous.state === entry.state) continue;
      events.push(
        isFinalState(entry.state)
          ? { type: "verdict", entry, previous }
          : { type: "changed", entry, previous },
      );
    }
    for (const [key, entry] of known) if (!next.has(key)) events.push({ type: "removed", entry });
    known = next;
    for (const event of events) listener(event);
  });
}
