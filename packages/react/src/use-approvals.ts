import type { OutboxEntry } from "@agui-outbox/core";
import { useMemo } from "react";
import { useStore } from "zustand";
import { useOutboxClient } from "./use-outbox-client";

const NONE: readonly OutboxEntry[] = [];

/**
 * The interrupt ids a thread should show a card for: every open interrupt,
 * and every answered one whose entry is still in the outbox (the thread drops
 * an interrupt once answered, but the person should still see the verdict).
 * Answered first (oldest first), then the open ones.
 */
export function useApprovals(threadId: string): readonly string[] {
  const client = useOutboxClient();
  const handle = useMemo(() => client.thread(threadId), [client, threadId]);
  const pending = useStore(handle.store, (state) => state.pendingInterrupts);
  const entries = useStore(client.outbox, (state) => state.entries);
  const mine = entries.length === 0 ? NONE : entries;
  return useMemo(() => {
    const ids: string[] = [];
    for (const entry of mine)
      if (entry.threadId === threadId && !ids.includes(entry.interruptId)) ids.push(entry.interruptId);
    for (const interrupt of pending) if (!ids.includes(interrupt.id)) ids.push(interrupt.id);
    return ids;
  }, [mine, pending, threadId]);
}
