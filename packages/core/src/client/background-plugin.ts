import { createStore } from "zustand/vanilla";
import type { BackgroundRunRecord } from "../background/background-run-record";
import type {
  BackgroundRunsOptions,
  BackgroundRunsState,
  StartBackgroundRunInput,
} from "../background/background-runs";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import { type ReadonlyStore, readonlyStore } from "../thread/thread-registry";

/** What the client drives of background runs (the `BackgroundRuns` machine, or none). */
export interface BackgroundRunner {
  readonly runs: ReadonlyStore<BackgroundRunsState>;
  start(input: StartBackgroundRunInput): Promise<BackgroundRunRecord>;
  retryNow(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
  resumeAll(): Promise<readonly BackgroundRunRecord[]>;
  resumeAfterAuth(): Promise<void>;
  activate(): void;
  deactivate(): void;
  /** Waits for the writes in flight (before `clear` wipes storage). */
  drain(): Promise<void>;
  reset(): Promise<void>;
  dispose(): void;
}

/**
 * Background runs as an option of the client: `createOutboxClient({ backgroundRuns:
 * backgroundRuns() })` with `backgroundRuns` from `@agui-outbox/core/background`. An
 * app that never starts one does not ship their poller, store and reducer.
 */
export type BackgroundRunsPlugin = (options: BackgroundRunsOptions) => BackgroundRunner;

const disabled = () =>
  Promise.reject(
    new OutboxError(
      ErrorKind.backgroundRunsDisabled,
      'Background runs are not enabled: pass `backgroundRuns: backgroundRuns()` from "@agui-outbox/core/background".',
    ),
  );

/** The client without background runs: no runs, and starting one says how to enable them. */
export const withoutBackgroundRuns: BackgroundRunsPlugin = () => ({
  runs: readonlyStore(createStore<BackgroundRunsState>(() => ({ runs: [] }))),
  start: disabled,
  retryNow: disabled,
  discard: disabled,
  resumeAll: async () => [],
  resumeAfterAuth: async () => {},
  activate: () => {},
  deactivate: () => {},
  drain: async () => {},
  reset: async () => {},
  dispose: () => {},
});
