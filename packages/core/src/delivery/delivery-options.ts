import type { OutboxEntry } from "../outbox/entry";
import type { OutboxStore } from "../outbox/outbox-store";
import type { ServerKind } from "../outcome/delivery-signal";
import type { PlanRetryOptions } from "../retry/plan-retry";
import type { Timers } from "../stream/timers";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { AgentHttp } from "../transport/agent-http";
import type { EntryBook } from "./entry-book";

/** The part of `OutboxDeps` a delivery uses, declared here so delivery imports nothing of the client. */
export interface DeliveryDeps {
  readonly now: () => number;
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
  readonly hydrate: (threadId: string) => Promise<void>;
  /** After every committed change: the entries, the key touched and its new entry (none: a storage read). */
  readonly publish: (entries: readonly OutboxEntry[], key?: string, entry?: OutboxEntry) => void;
  readonly onPaused: (entry: OutboxEntry) => void;
  readonly onError?: (error: unknown) => void;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  readonly retry: PlanRetryOptions;
}

export interface DeliveryContext {
  readonly options: DeliveryEngineOptions;
  readonly book: EntryBook;
  readonly active: () => boolean;
  readonly abortSignal: () => AbortSignal;
}
