import { EntryState } from "../outbox/entry";
import type { ClientParts, StartedClient } from "./client-parts";

/**
 * A lost answer posted as a chat message, on the person's word. The mark goes first, durably and
 * by compare-and-set, so no reload, tab or second click posts it twice (each post may run the tool
 * again). True when this call posted it.
 */
export async function resendAsMessage(
  parts: ClientParts,
  { store, engine }: StartedClient,
  key: string,
  text: string,
): Promise<boolean> {
  // Twice at most: a first refusal may be another change than a mark.
  for (let tries = 0; tries < 2; tries += 1) {
    const stored = await store.get(key);
    if (!stored || stored.state !== EntryState.lost || stored.resentAt !== undefined) {
      if (stored) engine.adopt(stored);
      return false;
    }
    const at = parts.deps.now();
    const result = await store.commit({ ...stored, resentAt: at, updatedAt: at });
    const current = result.committed ? result.entry : result.current;
    // Published here and announced to the other tabs, which take it by revision.
    if (current) engine.adopt(current);
    if (!result.committed) continue;
    await parts.runner.send(stored.threadId, text);
    return true;
  }
  return false;
}
