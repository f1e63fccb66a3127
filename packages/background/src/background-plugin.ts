import {
  ErrorKind,
  OutboxError,
  type OutboxPlugin,
  type PluginContext,
  type ReadonlyStore,
} from "@agui-outbox/core";
import type { BackgroundRunRecord } from "./background-run-record";
import { BackgroundRuns } from "./background-runs";
import type { BackgroundRunsState, StartBackgroundRunInput } from "./background-runs-options";

/** Long-running runs polled with a continuation token that survives reloads. */
export interface BackgroundRunsPlugin extends OutboxPlugin {
  /** Every run of the client's namespace, oldest first. */
  readonly runs: ReadonlyStore<BackgroundRunsState>;
  /** Sends a message as a background run; resolves once its continuation token is on disk. */
  start(input: StartBackgroundRunInput): Promise<BackgroundRunRecord>;
  retryNow(runId: string): Promise<void>;
  discard(runId: string): Promise<void>;
}

/**
 * Background runs for one client: pass the result in `createOutboxClient({ plugins: [background] })`,
 * then `background.start({ threadId, text })`. Only the sending tab polls; a run another tab
 * starts is handed to it through storage.
 */
export function backgroundRuns(): BackgroundRunsPlugin {
  let attached: { readonly runner: BackgroundRuns; readonly context: PluginContext } | undefined;
  const use = () => {
    if (attached) return attached;
    throw new OutboxError(
      ErrorKind.backgroundRunsDisabled,
      "Background runs are not attached to a client: pass them in `createOutboxClient({ plugins: [background] })`.",
    );
  };
  /** Each call waits for the client's start. */
  const started = async () => {
    const { runner, context } = use();
    await context.start();
    return runner;
  };
  return {
    attach(context) {
      if (attached) {
        throw new OutboxError(
          ErrorKind.backgroundRunsDisabled,
          "Background runs serve one client: call backgroundRuns() per client.",
        );
      }
      attached = { runner: new BackgroundRuns(context), context };
      return attached.runner;
    },
    get runs() {
      return use().runner.runs;
    },
    async start(input) {
      const record = await (await started()).start(input);
      use().context.handOver();
      return record;
    },
    retryNow: async (runId) => (await started()).retryNow(runId),
    discard: async (runId) => (await started()).discard(runId),
  };
}
