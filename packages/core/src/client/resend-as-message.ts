import type { DeliveryEngine } from "../delivery/delivery-engine";
import { EntryState } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";

export interface ResendAsMessageOptions {
  readonly store: OutboxStore;
  readonly engine: DeliveryEngine;
  readonly now: () => number;
  /** Posts `text` to the thread as a user message. */
  readonly send: (threadId: string, text: string) => Promise<void>;
}

/**
 * A lost answer posted to the agent as a chat message, on the person's word.
 * The mark goes first, durably and from any tab (compare-and-set on the stored
 * copy), so a reload, another tab or a second click never posts it twice: each
 * post may make the agent run the tool again. Resolves true when this call
 * posted it; false when the entry is not lost or is marked already.
 */
export async function resendAsMessage(
  options: ResendAsMessageOptions,
  key: string,
  text: string,
): Promise<boolean> {
  const { store, engine } = options;
  // Twice at most: a first refusal may be another change than a mark.
  for (let tries = 0; tries < 2; tries += 1) {
    const stored = await store.get(key);
    if (!stored || stored.state !== EntryState.lost || stored.resentAt !== undefined) {
      if (stored) engine.adopt(stored);
      return false;
    }
    const at = options.now();
    const result = await store.commit({ ...stored, resentAt: at, updatedAt: at });
    const current = result.committed ? result.entry : result.current;
    // Published here and announced to the other tabs, which take it by revision.
    if (current) engine.adopt(current);
    if (!result.committed) continue;
    await options.send(stored.threadId, text);
    return true;
  }
  return false;
}
