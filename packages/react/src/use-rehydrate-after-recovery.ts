import { isFinalState, type OutboxClient, watchEntries } from "@agui-outbox/core";
import { useEffect, useRef } from "react";

/**
 * An answer recovered from storage (found there when the outbox loaded, sent by an
 * earlier page) resumes its stream after the cursor it had reached: events the earlier
 * page received, such as a tool's result, are not sent again, and the hydration on
 * mount may predate them (a server records a run's messages when it commits). So when
 * such an answer of this thread reaches its verdict, the thread is read once more.
 */
export function useRehydrateAfterRecovery(
  client: OutboxClient,
  threadId: string,
  rehydrate: () => unknown,
): void {
  const latest = useRef(rehydrate);
  latest.current = rehydrate;
  useEffect(() => {
    const recovered = new Set<string>();
    let loaded = false;
    const note = () => {
      const state = client.outbox.getState();
      if (loaded || !state.ready) return;
      loaded = true;
      for (const entry of state.entries)
        if (entry.threadId === threadId && !isFinalState(entry.state)) recovered.add(entry.key);
    };
    note();
    const stopNoting = client.outbox.subscribe(note);
    const stopWatching = watchEntries(client.outbox, (event) => {
      if (event.type !== "verdict" || !recovered.delete(event.entry.key)) return;
      latest.current();
    });
    return () => {
      stopNoting();
      stopWatching();
    };
  }, [client, threadId]);
}
