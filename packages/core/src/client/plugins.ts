import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { TabMessage } from "../tabs/tab-message";
import type { ReadonlyStore, ThreadRegistry } from "../thread/thread-registry";
import type { ThreadRunner } from "../thread/thread-runner";
import type { AgentHttp } from "../transport/agent-http";
import type { OutboxDeps } from "./deps";
import type { Lifecycle } from "./lifecycle";

/**
 * An add-on the client drives (`backgroundRuns()` from `@agui-outbox/background`):
 * attached once, to one client, when the client is created.
 */
export interface OutboxPlugin {
  attach(context: PluginContext): PluginHooks;
}

/** The client's parts an add-on works with. */
export interface PluginContext {
  readonly namespace: string;
  readonly url: string;
  readonly deps: OutboxDeps;
  readonly threads: ThreadRegistry;
  readonly http: AgentHttp;
  /** The client's storage; throws `storage_unavailable` before the start opened it. */
  readonly store: () => OutboxStore;
  readonly retry: PlanRetryOptions;
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
  hydrate(threadId: string): Promise<void>;
  /** The client's `start()`. */
  start(): Promise<void>;
  /** Asks the sending tab to resume the records from storage; nothing in the sending tab. */
  handOver(): void;
}

/** What the client calls, as the tab's role and the session change. */
export interface PluginHooks {
  /** The records kept in storage's background area: the sending tab announces each change. */
  readonly runs: ReadonlyStore<{ readonly runs: readonly { readonly runId: string }[] }>;
  /** Reads the records again (at start, and when another tab says they changed). */
  resumeAll(): Promise<unknown>;
  resumeAfterAuth(): Promise<void>;
  /** This tab sends now, or no longer. */
  activate(): void;
  deactivate(): void;
  /** Waits for the writes in flight (before a sign-out wipes storage). */
  drain(): Promise<void>;
  reset(): Promise<void>;
  dispose(): void;
}

/** The client options the plugins read. */
interface PluginOptions {
  readonly plugins?: readonly OutboxPlugin[];
  readonly retry?: PlanRetryOptions;
  readonly headers?: PluginContext["headers"];
}

interface PluginParts {
  readonly namespace: string;
  readonly url: string;
  readonly deps: OutboxDeps;
  readonly threads: ThreadRegistry;
  readonly http: AgentHttp;
  readonly runner: ThreadRunner;
  readonly lifecycle: Lifecycle;
  readonly store: () => OutboxStore | undefined;
  readonly start: () => Promise<void>;
  readonly isLeader: () => boolean;
  readonly broadcast: (message: TabMessage) => void;
}

/** The client's side: every plugin's hooks called as one, and their records for a memory fallback. */
export interface AttachedPlugins extends Omit<PluginHooks, "runs"> {
  records(): readonly { readonly runId: string }[];
}

/** Every plugin of the options attached to the client's parts. */
export function attachPlugins(options: PluginOptions, parts: PluginParts): AttachedPlugins {
  const { runner, lifecycle, store, isLeader, broadcast, ...shared } = parts;
  const context: PluginContext = {
    ...shared,
    store: () => {
      const opened = store();
      if (!opened) throw new OutboxError(ErrorKind.storageUnavailable, "Storage is not open yet.");
      return opened;
    },
    retry: options.retry ?? {},
    hydrate: (threadId) => runner.hydrate(threadId),
    handOver: () => {
      if (!isLeader()) broadcast({ type: "request", request: { kind: "resume-background" } });
    },
    ...(options.headers ? { headers: options.headers } : {}),
  };
  const all = (options.plugins ?? []).map((plugin) => plugin.attach(context));
  const each = async (call: (hooks: PluginHooks) => unknown) => {
    await Promise.all(all.map(call));
  };
  // Only the sending tab announces: followers re-reading must not set each other off.
  for (const hooks of all) {
    lifecycle.onDispose(
      hooks.runs.subscribe(() => {
        if (isLeader()) broadcast({ type: "background-changed" });
      }),
    );
  }
  return {
    records: () => all.flatMap((hooks) => hooks.runs.getState().runs),
    resumeAll: () => each((hooks) => hooks.resumeAll()),
    resumeAfterAuth: () => each((hooks) => hooks.resumeAfterAuth()),
    activate: () => {
      for (const hooks of all) hooks.activate();
    },
    deactivate: () => {
      for (const hooks of all) hooks.deactivate();
    },
    drain: () => each((hooks) => hooks.drain()),
    reset: () => each((hooks) => hooks.reset()),
    dispose: () => {
      for (const hooks of all) hooks.dispose();
    },
  };
}
