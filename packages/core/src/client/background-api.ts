import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import type { TabCoordinator } from "../tabs/tab-coordinator";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { ThreadRunner } from "../thread/thread-runner";
import type { AgentHttp } from "../transport/agent-http";
import { type BackgroundRunner, withoutBackgroundRuns } from "./background-plugin";
import type { BackgroundApi, OutboxClientOptions } from "./client-types";
import type { OutboxDeps } from "./deps";
import type { Lifecycle } from "./lifecycle";

/*
 * The client's side of background runs: the plugin built on the client's parts,
 * `client.background`, and the sending tab's word that its records changed.
 */

interface BackgroundParts {
  readonly namespace: string;
  readonly url: string;
  readonly deps: OutboxDeps;
  readonly threads: ThreadRegistry;
  readonly http: AgentHttp;
  readonly runner: ThreadRunner;
}

/** The app's `backgroundRuns` plugin (or none) on the client's parts; `store` is there once started. */
export function createBackgroundRunner(
  options: OutboxClientOptions,
  parts: BackgroundParts,
  store: () => OutboxStore | undefined,
): BackgroundRunner {
  const { runner, ...shared } = parts;
  return (options.backgroundRuns ?? withoutBackgroundRuns)({
    ...shared,
    store: () => {
      const opened = store();
      if (!opened) throw new OutboxError(ErrorKind.storageUnavailable, "Storage is not open yet.");
      return opened;
    },
    retry: options.retry ?? {},
    hydrate: (threadId) => runner.hydrate(threadId),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/**
 * `client.background`: each call waits for the start; only the sending tab
 * polls. Background records are mirrored through storage: the tab that polls
 * (or starts) a run says so, and the other tabs read the runs again. Only the
 * sending tab announces: followers re-reading must not set each other off.
 */
export function backgroundApi(
  background: BackgroundRunner,
  tabs: TabCoordinator,
  start: () => Promise<void>,
  lifecycle: Lifecycle,
): BackgroundApi {
  lifecycle.onDispose(
    background.runs.subscribe(() => {
      if (tabs.state.leader) tabs.broadcast({ type: "background-changed" });
    }),
  );
  return {
    runs: background.runs,
    start: async (input) => {
      await start();
      const record = await background.start(input);
      // Only the sending tab polls; a follower hands the run over through storage.
      if (!tabs.state.leader) tabs.broadcast({ type: "request", request: { kind: "resume-background" } });
      return record;
    },
    retryNow: async (runId) => {
      await start();
      await background.retryNow(runId);
    },
    discard: async (runId) => {
      await start();
      await background.discard(runId);
    },
  };
}
