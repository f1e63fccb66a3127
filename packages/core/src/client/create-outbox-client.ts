import { createStore, type StoreApi } from "zustand/vanilla";
import type { DeliveryEngine } from "../delivery/delivery-engine";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import { parseRetryAfter } from "../retry/retry-after";
import { requestPersistentStorage } from "../storage/request-persistence";
import { DEFAULT_MAX_EVENT_BYTES } from "../stream/read-event-stream";
import { DEFAULT_STALL_TIMEOUT_MS } from "../stream/watchdog";
import { createEntryChangeTracker } from "../tabs/entry-changes";
import { createTabCoordinator } from "../tabs/tab-coordinator";
import type { TabMessage } from "../tabs/tab-message";
import { readonlyStore, ThreadRegistry } from "../thread/thread-registry";
import { ThreadRunner } from "../thread/thread-runner";
import { AgentHttp } from "../transport/agent-http";
import { createAnswerPath } from "./answer-path";
import { clientCommands } from "./client-commands";
import { createClientEngine } from "./client-engine";
import type { ClientParts, StartedClient } from "./client-parts";
import type { OutboxClient, OutboxClientOptions } from "./client-types";
import { defaultDeps, type OutboxDeps } from "./deps";
import { createErrorSink, ErrorSource } from "./error-sink";
import { Leadership } from "./leadership";
import { Lifecycle } from "./lifecycle";
import { openClientStore } from "./open-client-store";
import {
  type ConnectionState,
  initialConnectionState,
  initialOutboxState,
  type OutboxState,
} from "./outbox-state";
import { attachPlugins } from "./plugins";
import { ServerKindMachine } from "./server-kind";
import { readStorageAtStart } from "./start-read";
import { TabSync } from "./tab-sync";
import { threadHandles } from "./thread-handles";
import { rescanStorage, watchOnlineAndVisible } from "./wake-ups";

export { sameDecision } from "../answer/decision";
export type {
  AnswerInput,
  OutboxClient,
  OutboxClientOptions,
  ThreadHandle,
} from "./client-types";

/*
 * The client is a facade over small machines, each in its own file:
 *
 *   lifecycle.ts     idle ─▶ opening ─▶ ready ─▶ disposed
 *   server-kind.ts   unknown ─▶ known (cached, then from capabilities)
 *   leadership.ts    granted ─▶ re-read ─▶ activate delivery; lost ─▶ deactivate
 *   tab-sync.ts      what this tab announces, what it applies from the others
 *   answer-path.ts   answer(): validate ─▶ durable entry ─▶ send after this task
 *   client-commands  retryNow, discard, resendAsMessage, resumeAfterAuth, clear (sign-out.ts)
 *   wake-ups.ts      online, visible, a rescan: nothing waits for a reload
 *   error-sink.ts    where every failure nobody awaits goes
 *   ../delivery/     deliveryStep(entry, signal) decides; the engine performs
 *
 * Start, with the recovery path kept short:
 *
 *   tabs.start() (channel open, lock asked) ──┐ messages from other tabs wait until ready
 *   open storage + first role known ─▶ read kind + entries (+ background runs) ─▶ ready
 *   capabilities GET ─────────────────────────┐                │
 *   lock granted ─▶ leadership: await ready ─▶ (kind known) ─▶ activate: send
 *
 * The channel opens before storage is read, so later commits of other tabs arrive as
 * messages and a tab holding the lock after its first read need not read again. Recovered
 * answers keep the bodies fixed when answered; outcomes are classified with the kind in force.
 */
const SERVER_CHANGED = "The server changed; checking what it supports.";

export function createOutboxClient(options: OutboxClientOptions): OutboxClient {
  const deps: OutboxDeps = { ...defaultDeps(), ...options.deps };
  const namespace = options.namespace;
  const url = options.url.replace(/\/$/, "");
  const outboxStore: StoreApi<OutboxState> = createStore<OutboxState>()(() => initialOutboxState);
  const connectionStore: StoreApi<ConnectionState> = createStore<ConnectionState>()(() => ({
    ...initialConnectionState,
    online: deps.online.get(),
  }));
  const sink = createErrorSink({ onStorageError: (error) => outboxStore.setState({ storageError: error }) });
  const lifecycle = new Lifecycle();
  // Applied events are mirrored to other tabs only when one is there. Entry messages go
  // even from a tab alone: a newcomer reads storage before its `hello` is heard.
  const threads = new ThreadRegistry((threadId, events) => {
    if (tabs.state.others > 0) tabs.broadcast({ type: "thread-events", threadId, events });
  });
  const http = new AgentHttp({
    url,
    fetch: deps.fetch,
    now: deps.now,
    parseRetryAfter: (value, now) => parseRetryAfter(value, now),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  let store: OutboxStore | undefined;
  let engine: DeliveryEngine | undefined;
  let starting: Promise<void> | undefined;

  const kind = new ServerKindMachine({
    namespace,
    http,
    deps,
    connection: connectionStore,
    store: () => store,
    sink,
    signal: lifecycle.signal,
    onKnown: () => engine?.kindChanged(),
    onAnswered: () => {
      if (isLeader()) engine?.retryNetworkWaitsNow();
    },
    waiting: () => isLeader() && engine?.networkWaits() === true,
  });
  const runner = new ThreadRunner({
    http,
    threads,
    deps,
    serverKind: () => kind.current(),
    stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
    maxReattaches: 5,
    // A server that changed under the page (a deploy, a mode switch) is detected again.
    onCursorsSeen: (seen) => {
      if (kind.known() && seen !== (kind.current() === "contract")) kind.contradicted(SERVER_CHANGED);
    },
  });
  const isLeader = () => tabs.state.leader;
  const broadcast = (message: TabMessage) => tabs.broadcast(message);
  const plugins = attachPlugins(options, {
    namespace,
    url,
    deps,
    threads,
    http,
    runner,
    lifecycle,
    store: () => store,
    start,
    isLeader,
    broadcast,
  });
  const tabSync = new TabSync({
    lifecycle,
    sink,
    threads,
    changes: createEntryChangeTracker(),
    engine: () => engine,
    store: () => store,
    plugins,
    isLeader,
    broadcast,
  });
  const leadership = new Leadership({
    deps,
    connection: connectionStore,
    lifecycle,
    sink,
    engine: () => engine,
    plugins,
    isLeader,
  });
  const tabs = createTabCoordinator({
    namespace,
    locks: deps.locks,
    openChannel: deps.openChannel,
    createTabId: deps.randomUUID,
    timers: deps.timers,
    onLeadershipChange: (leader) => leadership.onChange(leader),
    onMessage: (message) => tabSync.onMessage(message),
    onRescan: () => rescan(),
  });
  const parts: ClientParts = {
    namespace,
    options,
    deps,
    http,
    threads,
    runner,
    kind,
    outbox: outboxStore,
    connection: connectionStore,
    sink,
    plugins,
    tabs,
    tabSync,
    ownKeys: new Set<string>(),
    started,
  };

  const rescan = () => rescanStorage(parts, lifecycle, engine);

  // Each await ends at a dispose: nothing is subscribed or asked after it.
  async function doStart(): Promise<void> {
    lifecycle.dispatch({ type: "start" });
    let kindWasCached: boolean;
    try {
      kindWasCached = await lifecycle.until(openAndLoad(tabs.start()));
    } catch (error) {
      lifecycle.dispatch({ type: "failed" });
      // Do not hold the lock for a tab that will never send.
      sink.track(tabs.stop(), ErrorSource.tabs);
      throw error;
    }
    // With a cached kind, recovered answers go first: the refresh (a request, then a
    // metadata write) never competes with the resend's strict write.
    const first = kindWasCached ? undefined : kind.refresh();
    if (first) await lifecycle.until(first);
    const refreshed = first ?? leadership.settled().then(() => kind.refresh());
    watchOnlineAndVisible(parts, lifecycle, leadership, engine);
    lifecycle.onDispose(outboxStore.subscribe(() => kind.watch()));
    // `start()` resolves with the server kind current, as it always has.
    await lifecycle.until(refreshed);
    sink.track(readSettled(), ErrorSource.storage);
  }

  /** Opens and reads storage (with the first resend, in the sending tab); true when a kind was cached. */
  async function openAndLoad(roleKnown: Promise<void>): Promise<boolean> {
    const [opened] = await Promise.all([openStore(), roleKnown]);
    // Closed on dispose, even one that opened after it.
    if (opened.owned) lifecycle.onDispose(() => opened.store.close());
    lifecycle.signal.throwIfAborted();
    store = opened.store;
    if (options.requestPersistence !== false && outboxStore.getState().durable) {
      sink.track(requestPersistentStorage(deps.storageManager()), ErrorSource.storage);
    }
    const running = createClientEngine(parts, opened.store);
    engine = running;
    const [cached] = await Promise.all([
      readStorageAtStart({ namespace, store: opened.store, engine: running, kind, now: deps.now, isLeader }),
      plugins.resumeAll(),
    ]);
    lifecycle.signal.throwIfAborted();
    outboxStore.setState({ ready: true });
    lifecycle.dispatch({ type: "loaded" });
    tabSync.flushEarly();
    return cached;
  }

  /** The settled verdicts, read after the start so a store full of them never delays it; not announced. */
  async function readSettled(): Promise<void> {
    const [opened, running] = [store, engine];
    if (!opened || !running || lifecycle.isDisposed) return;
    const settled = await opened.listByNamespace(namespace, "settled");
    if (!lifecycle.isDisposed) tabSync.silently(() => running.holdSettled(settled));
  }

  function openStore() {
    return openClientStore(options, deps, outboxStore, {
      // Another tab upgraded the database and the store reopened: read it again.
      onReopen: () => {
        if (isLeader()) rescan();
        else if (engine) sink.track(engine.load(), ErrorSource.storage);
      },
      seed: () => ({ entries: engine?.entries() ?? [], backgroundRuns: plugins.records() }),
    });
  }

  function start(): Promise<void> {
    if (lifecycle.signal.aborted) return Promise.reject(lifecycle.signal.reason);
    starting ??= doStart();
    return starting;
  }

  async function started(): Promise<StartedClient> {
    await start();
    if (!store || !engine) throw new OutboxError(ErrorKind.disposed, "The client was disposed.");
    return { store, engine };
  }

  return {
    url: http.url,
    namespace,
    outbox: readonlyStore(outboxStore),
    connection: readonlyStore(connectionStore),
    start,
    thread: threadHandles(threads, runner, start),
    answer: createAnswerPath(parts),
    ...clientCommands(parts),
    dispose() {
      // Aborts the lifetime: listeners go, capabilities stop, an owned store closes, a start ends.
      lifecycle.dispatch({ type: "dispose" });
      sink.track(tabs.stop(), ErrorSource.tabs);
      leadership.stop();
      engine?.deactivate();
      plugins.dispose();
      runner.dispose();
      connectionStore.setState({ link: { name: "stopped" }, leader: false });
    },
  };
}
