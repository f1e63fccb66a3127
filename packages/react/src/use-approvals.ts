import { findProposedCall, type OutboxEntry } from "@agui-outbox/core";
import type { Message } from "@agui-outbox/core/protocol";
import { useMemo } from "react";
import { useStore } from "zustand";
import type { ThreadApproval } from "./thread-approval";
import { useOutboxClient } from "./use-outbox-client";

const NONE: readonly OutboxEntry[] = [];

/** Each tool call's place in the conversation: the order the agent asked in. */
function askedOrder(messages: readonly Message[]): Map<string, number> {
  const order = new Map<string, number>();
  for (const message of messages)
    if (message.role === "assistant")
      for (const call of message.toolCalls ?? []) order.set(call.id, order.size);
  return order;
}

/**
 * The questions a thread should show a card for: every open interrupt, and every
 * answered one whose entry is still in the outbox (the thread drops an interrupt
 * once answered, but the person should still see the verdict). In the order the
 * agent asked them, so answering one never moves a card under the pointer; those
 * whose tool call the conversation does not show follow, answered first.
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
    const asked = askedOrder(messages);
    const place = (approval: ThreadApproval) =>
      asked.get(approval.interrupt?.toolCallId ?? approval.entry?.toolCallId ?? "") ??
      Number.POSITIVE_INFINITY;
    return order
      .map((interruptId): ThreadApproval => {
        const interrupt = pending.find((item) => item.id === interruptId);
        const entry = newest.get(interruptId);
        const proposed = findProposedCall(messages, interrupt?.toolCallId ?? entry?.toolCallId);
        return { interruptId, threadId, interrupt, entry, proposed, toolName: proposed?.name };
      })
      .sort((a, b) => {
        // Unknown places are equal (Infinity − Infinity is NaN): the stable sort keeps them as they were.
        const [x, y] = [place(a), place(b)];
        return x === y ? 0 : x < y ? -1 : 1;
      });
  }, [all, pending, messages, threadId]);
}
