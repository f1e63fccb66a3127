import type { OutboxDeps, OutboxStore } from "@agui-outbox/core";
import type { AgentHttp, PlanRetryOptions, ThreadRegistry } from "@agui-outbox/core/internal";
import type { BackgroundRunRecord } from "./background-run-record";

/** The observable state: every run of the namespace, oldest first. */
export interface BackgroundRunsState {
  readonly runs: readonly BackgroundRunRecord[];
}

export type BackgroundDeps = Pick<OutboxDeps, "fetch" | "now" | "timers" | "random" | "randomUUID">;

export interface BackgroundRunsOptions {
  /** Whose runs these are; records of other namespaces are never loaded or polled. */
  readonly namespace: string;
  /** The agent endpoint, e.g. `https://host/agent` (no trailing slash). */
  readonly url: string;
  /** `fetch`, clock, timers, jitter and ids: the client's `deps`. */
  readonly deps: BackgroundDeps;
  /**
   * Where records live (metadata API). A getter is read per operation, so the
   * runner can be created before storage is open; it must not be called before
   * then. Not closed by `dispose()`.
   */
  readonly store: OutboxStore | (() => OutboxStore);
  /** Events are applied here, each once, in order. */
  readonly threads: ThreadRegistry;
  /** Error bodies, `Retry-After`, run status and re-attach. */
  readonly http: AgentHttp;
  /** Backoff (base 1 s, cap 30 s, full jitter) and retry budget (12 polls, 15 min) for failed polls. */
  readonly retry?: PlanRetryOptions;
  /** Extra headers for start and poll requests (auth), read per request. */
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Wait between two successful polls of a run that is still going.
   * @default 1_000
   */
  readonly pollIntervalMs?: number;
  /**
   * Reloads a thread from the server; used when missed events cannot be
   * replayed (event log expired, run forgotten). Without it those cases end in
   * `needs_user` with the thread as it is.
   */
  readonly hydrate?: (threadId: string) => Promise<void>;
  /**
   * Watchdog while re-attaching to fill a gap in the events.
   * @default 45_000
   */
  readonly stallTimeoutMs?: number;
  /** @default 1_048_576 */
  readonly maxEventBytes?: number;
}

export interface StartBackgroundRunInput {
  readonly threadId: string;
  /** The person's message. */
  readonly text: string;
}

export const DEFAULT_BACKGROUND_POLL_INTERVAL_MS = 1_000;
