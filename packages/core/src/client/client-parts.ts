import type { StoreApi } from "zustand/vanilla";
import type { DeliveryEngine } from "../delivery/delivery-engine";
import type { OutboxStore } from "../outbox/outbox-store";
import type { TabCoordinator } from "../tabs/tab-coordinator";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { ThreadRunner } from "../thread/thread-runner";
import type { AgentHttp } from "../transport/agent-http";
import type { OutboxClientOptions } from "./client-types";
import type { OutboxDeps } from "./deps";
import type { ErrorSink } from "./error-sink";
import type { ConnectionState, OutboxState } from "./outbox-state";
import type { AttachedPlugins } from "./plugins";
import type { ServerKindMachine } from "./server-kind";
import type { TabSync } from "./tab-sync";

/** What a started client opened: its storage and its delivery engine. */
export interface StartedClient {
  readonly store: OutboxStore;
  readonly engine: DeliveryEngine;
}

/** The client's parts, built once by `createOutboxClient` and handed whole to the code that works for it. */
export interface ClientParts {
  readonly namespace: string;
  readonly options: OutboxClientOptions;
  readonly deps: OutboxDeps;
  readonly http: AgentHttp;
  readonly threads: ThreadRegistry;
  readonly runner: ThreadRunner;
  readonly kind: ServerKindMachine;
  readonly outbox: StoreApi<OutboxState>;
  readonly connection: StoreApi<ConnectionState>;
  readonly sink: ErrorSink;
  readonly plugins: AttachedPlugins;
  readonly tabs: TabCoordinator;
  readonly tabSync: TabSync;
  /** Keys of the entries this tab wrote: with two answers to one interrupt, its cards show its own. */
  readonly ownKeys: Set<string>;
  /** Starts the client (once); resolves with what it opened, rejects once disposed. */
  readonly started: () => Promise<StartedClient>;
}
