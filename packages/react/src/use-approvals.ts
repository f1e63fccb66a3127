import { findProposedCall, type OutboxEntry } from "@agui-outbox/core";
import { useMemo } from "react";
import { useStore } from "zustand";
import type { ThreadApproval } from "./thread-approval";
import { useOutboxClient } from "./use-outbox-client";

const NONE: readonly OutboxEntry[] = [];

/**
 * The questions a thread should show a card for: every open interrupt, and every
 * answered one whose entry is still in the outbox (the thread drops an interrupt
 * once answered, but the person should still see the verdict). Answered first
 * (oldest first), then the open ones.
 */
export function useApprovals(threadId: string): readonly ThreadApproval[] {
  const client = useOutboxClient();
  const handle = useMemo(() => client.thread(threadId), [client, threadId]);
  const pending = useStore(handle.store, (state) => state.pendingInterrupts);
  const messages = useStore(handle.store, (state) => state.messages);
  const entries = useStore(client.outbox, (state) => state.entries);
  const all = entries.length === 0 ? NONE : entries;
  return useMemo(() => {
    const newest = new Map<string, OutboxEntry>();
    const order: string[] = [];
    for (const entry of all) {
      if (entry.threadId !== threadId) continue;
      if (!newest.has(entry.interruptId)) order.push(entry.interruptId);
      newest.set(entry.interruptId, entry);
    }
    for (const interrupt of pending) if (!order.includes(interrupt.id)) order.push(interrupt.id);
    return order.map((interruptId): ThreadApproval => {
      const interrupt = pending.find((item) => item.id === interruptId);
      const entry = newest.get(interruptId);
      const proposed = findProposedCall(messages, interrupt?.toolCallId ?? entry?.toolCallId);
      return { interruptId, threadId, interrupt, entry, proposed, toolName: proposed?.name };
    });
  }, [all, pending, messages, threadId]);
}
