import { EntryState } from "../outbox/entry";
import type { ClientParts, StartedClient } from "./client-parts";

/**
 * A lost answer posted to the agent as a chat message, on the person's word.
 * The mark goes first, durably and from any tab (compare-and-set on the stored
 * copy), so a reload, another tab or a second click never posts it twice: each
 * post may make the agent run the tool again. Resolves true when this call
 * posted it; false when the entry is not lost or is marked already.
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
    // Posted to the thread as a user message.
    await parts.runner.send(stored.threadId, text);
    return true;
  }
  return false;
}
