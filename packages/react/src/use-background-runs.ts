import type { ReadonlyStore } from "@agui-outbox/core";
import { useStore } from "zustand";

/** What the hook binds: `backgroundRuns()` from `@agui-outbox/background`, passed to the client. */
export interface BackgroundRunsSource<Run> {
  readonly runs: ReadonlyStore<{ readonly runs: readonly Run[] }>;
  start(input: { readonly threadId: string; readonly text: string }): Promise<Run>;
  retryNow(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
}

export interface UseBackgroundRunsResult<Run> {
  /** Every background run of the namespace, with its verdict (`polling`, `retry_wait`, `completed`, `lost`, …). */
  readonly runs: readonly Run[];
  /** Sends a message as a background run; resolves once its continuation token is on disk. */
  start(threadId: string, text: string): Promise<Run>;
  retryNow(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
}

/** Long-running runs that survive reloads: `@agui-outbox/background`'s store, bound to React. */
export function useBackgroundRuns<Run>(background: BackgroundRunsSource<Run>): UseBackgroundRunsResult<Run> {
  const { runs } = useStore(background.runs);
  return {
    runs,
    start: (threadId, text) => background.start({ threadId, text }),
    retryNow: (runId) => background.retryNow(runId),
    discard: (runId) => background.discard(runId),
  };
}
