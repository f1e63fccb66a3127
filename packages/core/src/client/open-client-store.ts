import type { StoreApi } from "zustand/vanilla";
import { type FallbackSeed, FallbackStore } from "../outbox/fallback-store";
import { MemoryStore } from "../outbox/memory-store";
import { openOutboxStore } from "../outbox/open-store";
import type { OutboxStore } from "../outbox/outbox-store";
import type { OutboxClientOptions } from "./client-types";
import type { OutboxDeps } from "./deps";
import type { OutboxState } from "./outbox-state";

export interface OpenedClientStore {
  readonly store: OutboxStore;
  /** A store the app passed in is the app's to close; one this client opened is closed by `dispose`. */
  readonly owned: boolean;
}

export interface StoreEvents {
  /** Storage holds what this tab has not read (it reopened after a close, a sealing key arrived): read it again. */
  readonly onReopen?: () => void;
  /** What the page holds, to go on from in memory when the database is gone for good. */
  readonly seed?: () => FallbackSeed;
}

export async function openClientStore(
  options: OutboxClientOptions,
  deps: OutboxDeps,
  outboxStore: StoreApi<OutboxState>,
  events: StoreEvents = {},
): Promise<OpenedClientStore> {
  const opened = await openPlainStore(options, deps, outboxStore, events);
  // A key opens what was withheld: read storage again, as after a reopen.
  const store = options.sealing?.wrap(opened.store, outboxStore, events.onReopen);
  return store ? { ...opened, store } : opened;
}

async function openPlainStore(
  options: OutboxClientOptions,
  deps: OutboxDeps,
  outboxStore: StoreApi<OutboxState>,
  events: StoreEvents = {},
): Promise<OpenedClientStore> {
  const choice = options.storage ?? "indexeddb";
  if (choice === "memory") {
    outboxStore.setState({ durable: false });
    return { store: new MemoryStore(), owned: false };
  }
  if (typeof choice === "object") {
    outboxStore.setState({ durable: true });
    return { store: choice, owned: false };
  }
  let fallback: FallbackStore | undefined;
  const opened = await openOutboxStore({
    indexedDB: deps.indexedDB(),
    ...(options.dbName ? { dbName: options.dbName } : {}),
    onClose: (reason) => outboxStore.setState({ storageError: reason }),
    onReopen: () => {
      outboxStore.setState({ durable: true, storageError: null });
      events.onReopen?.();
    },
    // Said loudly: answers from now on live in this page only, and delivery goes on from there.
    onUnavailable: (reason) => {
      outboxStore.setState({ durable: false, storageError: reason });
      void fallback?.fallBack(events.seed?.() ?? { entries: [], backgroundRuns: [] });
    },
  });
  outboxStore.setState(
    opened.durable
      ? { durable: true, storageError: null }
      : { durable: false, storageError: opened.fallbackReason },
  );
  if (!opened.durable) return { store: opened.store, owned: true };
  fallback = new FallbackStore(opened.store, options.namespace);
  return { store: fallback, owned: true };
}
