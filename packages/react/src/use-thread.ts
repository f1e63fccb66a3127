import type { OutboxClient, PendingInterrupt, RunState, ThreadState } from "@agui-outbox/core";
import type { Message } from "@agui-outbox/core/protocol";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { useStore } from "zustand";
import { useOutboxClient } from "./use-outbox-client";
import { useRehydrateAfterRecovery } from "./use-rehydrate-after-recovery";

export interface UseThreadResult {
  readonly threadId: string;
  readonly messages: readonly Message[];
  readonly run: RunState;
  readonly pendingInterrupts: readonly PendingInterrupt[];
  /** True once the thread was hydrated or received a run's events. */
  readonly loaded: boolean;
  /** True while the hydration on mount is in flight. */
  readonly hydrating: boolean;
  /** The hydration failure, if it failed (the thread still works; sending hydrates again later). */
  readonly hydrationError: Error | null;
  /** Sends a user message and resolves when its run ends. Rejects with an `OutboxError`. */
  send(text: string): Promise<void>;
  /** Replays the thread from the server again. */
  rehydrate(): Promise<void>;
}

// A hydration fills one client's thread store: a client made again for the same user
// (a switch back, a sign-in) has empty stores, so its cache entries are its own.
const clientIds = new WeakMap<OutboxClient, number>();
let clientCount = 0;
function clientId(client: OutboxClient): number {
  let id = clientIds.get(client);
  if (id === undefined) {
    clientCount += 1;
    id = clientCount;
    clientIds.set(client, id);
  }
  return id;
}

/**
 * One thread: its messages, run state and open interrupts. The thread is
 * hydrated from the server on first mount (through react-query, so two
 * components showing one thread hydrate it once), which is how a reload gets
 * its messages and open questions back.
 */
export function useThread(threadId: string): UseThreadResult {
  const client = useOutboxClient();
  const handle = useMemo(() => client.thread(threadId), [client, threadId]);
  const state: ThreadState = useStore(handle.store);
  const hydration = useQuery({
    queryKey: ["agui-outbox", client.namespace, clientId(client), "hydrate", threadId],
    queryFn: async () => {
      await handle.hydrate();
      return true;
    },
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: 2,
  });
  const send = useCallback((text: string) => handle.send(text), [handle]);
  const { refetch, isError } = hydration;
  // A hydration that failed while offline is tried again once the link is back.
  const connected = useStore(client.connection, (state) => state.link.name === "connected");
  useEffect(() => {
    if (connected && isError) void refetch();
  }, [connected, isError, refetch]);
  const rehydrate = useCallback(async () => {
    await refetch();
  }, [refetch]);
  useRehydrateAfterRecovery(client, threadId, rehydrate);

  return {
    threadId,
    messages: state.messages,
    run: state.run,
    pendingInterrupts: state.pendingInterrupts,
    loaded: state.loaded,
    hydrating: hydration.isFetching,
    hydrationError: hydration.error,
    send,
    rehydrate,
  };
}
