import type { OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import type { ServerKind } from "../outcome/delivery-signal";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { Timers } from "../stream/timers";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { AgentHttp } from "../transport/agent-http";
import type { EntryBook } from "./entry-book";

/**
 * The side effects a delivery uses: the part of the client's `OutboxDeps` it is
 * handed, declared here so that delivery imports nothing of the client.
 */
export interface DeliveryDeps {
  readonly now: () => number;
  /** Uniform in [0, 1): drives backoff jitter. */
  readonly random: () => number;
  readonly timers: Timers;
}

export interface DeliveryEngineOptions {
  readonly namespace: string;
  readonly store: OutboxStore;
  readonly http: AgentHttp;
  readonly threads: ThreadRegistry;
  readonly deps: DeliveryDeps;
  readonly serverKind: () => ServerKind;
  /** False while the server kind is unknown: nothing new is sent (a body is shaped for a known kind only). */
  readonly kindKnown: () => boolean;
  /** The server answered unlike the kind in force (see DeliveryTransport). */
  readonly onKindContradicted?: (reason: string) => void;
  /** Hydrates a thread from the server (shared with the thread handles). */
  readonly hydrate: (threadId: string) => Promise<void>;
  /**
   * Called after every committed change with the namespace's entries (oldest
   * first) and the key the change touched, with its new entry (`undefined` once
   * it is gone). No key: every entry may have changed (a read of storage).
   */
  readonly publish: (entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry) => void;
  readonly onPaused: (entry: OutboxEntry) => void;
  /** Where failures the delivery survives are reported (the client's error sink). */
  readonly onError?: (error: unknown) => void;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  readonly retry: PlanRetryOptions;
  /** Re-attaches in a row without a new event before falling back to a resend. */
  readonly maxReattachesWithoutProgress: number;
  /** How long settled entries are kept (see `retention.ts`). @default FINAL_ENTRY_RETENTION_MS */
  readonly finalRetentionMs?: number;
}

/** What the sending half works with: the engine's options and entries, and its activation. */
export interface DeliveryContext {
  readonly options: DeliveryEngineOptions;
  readonly book: EntryBook;
  /** False once delivery stopped: progress is no longer written. */
  readonly active: () => boolean;
  /** Aborted when delivery stops. */
  readonly abortSignal: () => AbortSignal;
}
