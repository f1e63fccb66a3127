import type { BackgroundRunRecord } from "@agui-outbox/core";
import { useStore } from "zustand";
import { useOutboxClient } from "./use-outbox-client";

export interface UseBackgroundRunsResult {
  /** Every background run of the namespace, with its verdict (`polling`, `retry_wait`, `completed`, `lost`, …). */
  readonly runs: readonly BackgroundRunRecord[];
  /** Sends a message as a background run; resolves once its continuation token is on disk. */
  start(threadId: string, text: string): Promise<BackgroundRunRecord>;
  retryNow(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
}

/** Long-running runs that survive reloads: the core's background store, bound to React. */
export function useBackgroundRuns(): UseBackgroundRunsResult {
  const client = useOutboxClient();
  const { runs } = useStore(client.background.runs);
  return {
    runs,
    start: (threadId, text) => client.background.start({ threadId, text }),
    retryNow: (runId) => client.background.retryNow(runId),
    discard: (runId) => client.background.discard(runId),
  };
}
