import { createStore, type StoreApi } from "zustand/vanilla";
import { DeliveryEngine } from "../delivery/delivery-engine";
import { ErrorKind, OutboxError } from "../errors/outbox-error";
import type { OutboxStore } from "../outbox/outbox-store";
import { parseRetryAfter } from "../retry/retry-after";
import { requestPersistentStorage } from "../storage/request-persistence";
import { DEFAULT_MAX_EVENT_BYTES } from "../stream/read-event-stream";
import { DEFAULT_STALL_TIMEOUT_MS } from "../stream/watchdog";
import { createEntryChangeTracker } from "../tabs/entry-changes";
import { createTabCoordinator } from "../tabs/tab-coordinator";
import { readonlyStore, ThreadRegistry } from "../thread/thread-registry";
import { ThreadRunner } from "../thread/thread-runner";
import { AgentHttp } from "../transport/agent-http";
import { createAnswerPath } from "./answer-path";
import { withoutBackgroundRuns } from "./background-plugin";
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
import { readOpenThreads } from "./read-open-threads";
import { resendAsMessage } from "./resend-as-message";
import { ServerKindMachine, waitsOnNetwork } from "./server-kind";
import { signOut } from "./sign-out";
import { readStorageAtStart } from "./start-read";
import { TabSync } from "./tab-sync";
import { threadHandles } from "./thread-handles";

export { sameDecision } from "../answer/decision";
export type {
  AnswerInput,
  BackgroundApi,
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
 *   sign-out.ts      clear(): stop writers ─▶ let writes land ─▶ wipe ─▶ start empty
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
 * The sending tab reads the kind and the entries in one readwrite transaction
 * that also writes its first recovered resend's `sending` (with a kind cached:
 * nothing is sent before the kind is known), and activation hands that resend
 * to fetch with no write of its own: one durable flush before the request.
 *
 * The channel is open before storage is read, so whatever another tab commits
 * after that read reaches this tab as a message: a tab that holds the lock by
 * the time the first read is done need not read storage again.
 * With a server kind cached by an earlier start, recovered entries go out
 * first and capabilities refresh after the sending tab has handed them to the
 * engine (the refresh's metadata write never competes with the resend's strict
 * write): their bodies were fixed when they were answered,
 * for the kind known then, and every outcome is classified with the kind in
 * force when it arrives (the refreshed one, once the refresh has answered).
 * Without a cached kind, sending waits for the first capabilities answer.
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
  // Every event this tab applies is mirrored by the others, a task's worth per
  // message, and only when another tab is there; `tabs` is assigned below,
  // before anything can apply an event. Entry messages are posted even by a tab
  // that thinks it is alone: a newcomer reads storage before its `hello` is heard.
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
    waiting: () => isLeader() && outboxStore.getState().entries.some(waitsOnNetwork),
  });
  const serverKind = () => kind.current();
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const runner = new ThreadRunner({
    http,
    threads,
    deps,
    serverKind,
    stallTimeoutMs,
    maxEventBytes,
    maxReattaches: 5,
    // A server that changed under the page (a deploy, a mode switch) is detected again.
    onCursorsSeen: (seen) => {
      if (kind.known() && seen !== (kind.current() === "contract")) kind.contradicted(SERVER_CHANGED);
    },
  });
  const background = (options.backgroundRuns ?? withoutBackgroundRuns)({
    namespace,
    url,
    deps,
    store: () => {
      if (!store) throw new OutboxError(ErrorKind.storageUnavailable, "Storage is not open yet.");
      return store;
    },
    threads,
    http,
    retry: options.retry ?? {},
    hydrate: (threadId) => runner.hydrate(threadId),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const isLeader = () => tabs.state.leader;
  const tabSync = new TabSync({
    lifecycle,
    sink,
    threads,
    changes: createEntryChangeTracker(),
    engine: () => engine,
    store: () => store,
    background,
    isLeader,
    broadcast: (message) => tabs.broadcast(message),
  });
  const leadership = new Leadership({
    deps,
    connection: connectionStore,
    lifecycle,
    sink,
    engine: () => engine,
    background,
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
  /** Keys of the entries this tab wrote: with two answers to one interrupt, its cards show its own. */
  const ownKeys = new Set<string>();

  /**
   * The leader reads storage again (a tab said hello, the page became visible,
   * the slow tick, the database reopened): nothing stored waits for a reload.
   */
  function rescan(): void {
    if (!lifecycle.isReady || lifecycle.isDisposed || !isLeader()) return;
    if (engine) sink.track(engine.rescan(), ErrorSource.storage);
    sink.track(background.resumeAll(), ErrorSource.background);
  }
  const readOpenThreadsAgain = () => {
    if (lifecycle.isReady && !lifecycle.isDisposed)
      readOpenThreads({ threads, entries: outboxStore.getState().entries, runner, engine, sink });
  };
  const setLink = (link: ConnectionState["link"]) => connectionStore.setState({ link });
  // Background records are mirrored through storage: the tab that polls (or starts)
  // a run says so, and the other tabs read the runs again.
  // Only the sending tab announces: followers re-reading must not set each other off.
  lifecycle.onDispose(
    background.runs.subscribe(() => {
      if (isLeader()) tabs.broadcast({ type: "background-changed" });
    }),
  );

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
    // With a kind cached by an earlier start, recovered answers go first: the
    // refresh (a request, then a metadata write) starts once the sending tab has
    // handed its recovered entries to the engine, so it never competes with the
    // resend's strict write.
    const first = kindWasCached ? undefined : kind.refresh();
    if (first) await lifecycle.until(first);
    const refreshed = first ?? leadership.settled().then(() => kind.refresh());
    lifecycle.onDispose(
      deps.online.subscribe((online) => {
        connectionStore.setState({ online });
        if (online) {
          setLink({ name: "connected", serverKind: serverKind() });
          readOpenThreadsAgain();
          if (isLeader()) {
            leadership.retryNow();
            engine?.retryNetworkWaitsNow();
          }
        } else {
          setLink({ name: "offline" });
        }
      }),
    );
    lifecycle.onDispose(
      deps.visible.subscribe((visible) => {
        if (visible) readOpenThreadsAgain();
        if (visible && isLeader()) {
          leadership.retryNow();
          engine?.retryNetworkWaitsNow();
          rescan();
        }
      }),
    );
    lifecycle.onDispose(outboxStore.subscribe(() => kind.watch()));
    // `start()` resolves with the server kind current, as it always has.
    await lifecycle.until(refreshed);
    sink.track(readSettled(), ErrorSource.storage);
  }

  /**
   * Opens storage and reads it; true when a server kind was cached by an earlier
   * start. The read waits for this tab's first role (known within a lock request
   * that never queues): the sending tab reads in one transaction that also writes
   * its first resend.
   */
  async function openAndLoad(roleKnown: Promise<void>): Promise<boolean> {
    const [opened] = await Promise.all([openStore(), roleKnown]);
    // Closed on dispose, even one that opened after it.
    if (opened.owned) lifecycle.onDispose(() => opened.store.close());
    lifecycle.signal.throwIfAborted();
    store = opened.store;
    if (options.requestPersistence !== false && outboxStore.getState().durable) {
      sink.track(requestPersistentStorage(deps.storageManager()), ErrorSource.storage);
    }
    const running = createEngine(opened.store);
    engine = running;
    const [cached] = await Promise.all([
      readStorageAtStart({ namespace, store: opened.store, engine: running, kind, now: deps.now, isLeader }),
      background.resumeAll(),
    ]);
    lifecycle.signal.throwIfAborted();
    outboxStore.setState({ ready: true });
    lifecycle.dispatch({ type: "loaded" });
    tabSync.flushEarly();
    return cached;
  }

  /**
   * The settled verdicts (applied, elsewhere, expired), which a start does not
   * read: once it resolved, so a store full of them never delays it or a
   * resend. Not announced: every tab reads them from storage.
   */
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
      seed: () => ({ entries: engine?.entries() ?? [], backgroundRuns: background.runs.getState().runs }),
    });
  }

  function createEngine(opened: OutboxStore): DeliveryEngine {
    return new DeliveryEngine({
      namespace,
      store: opened,
      http,
      threads,
      deps,
      serverKind,
      kindKnown: () => kind.known(),
      onKindContradicted: (reason) => kind.contradicted(reason),
      hydrate: (threadId) => runner.hydrate(threadId),
      publish: (entries, key, entry) => {
        outboxStore.setState({ entries });
        tabSync.published(entries, key, entry);
      },
      onPaused: (entry) => {
        setLink({ name: "paused", reason: "unauthorized" });
        options.onAuthRequired?.(entry);
      },
      onError: (error) => sink.report(error, ErrorSource.delivery),
      stallTimeoutMs,
      maxEventBytes,
      retry: options.retry ?? {},
      maxReattachesWithoutProgress: 2,
    });
  }

  function start(): Promise<void> {
    if (lifecycle.signal.aborted) return Promise.reject(lifecycle.signal.reason);
    starting ??= doStart();
    return starting;
  }

  async function started(): Promise<{ store: OutboxStore; engine: DeliveryEngine }> {
    await start();
    if (!store || !engine) throw new OutboxError(ErrorKind.disposed, "The client was disposed.");
    return { store, engine };
  }

  const answer = createAnswerPath({
    namespace,
    deps,
    threads,
    retentionMs: options.retentionMs,
    serverKind,
    kindKnown: () => kind.known(),
    contradicted: (reason) => kind.contradicted(reason),
    started,
    broadcast: (message) => tabs.broadcast(message),
    isLeader,
    announce: (key, message) => tabs.announce(key, message),
    onOwnEntry: (key) => ownKeys.add(key),
    silently: (apply) => tabSync.silently(apply),
  });

  const thread = threadHandles(threads, runner, start);

  return {
    url: http.url,
    namespace,
    outbox: readonlyStore(outboxStore),
    background: {
      runs: background.runs,
      start: async (input) => {
        await start();
        const record = await background.start(input);
        // Only the sending tab polls; a follower hands the run over through storage.
        if (!isLeader()) tabs.broadcast({ type: "request", request: { kind: "resume-background" } });
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
    },
    connection: readonlyStore(connectionStore),
    start,
    thread,
    answer,
    entryFor(threadId, interruptId, entries = outboxStore.getState().entries) {
      const matching = entries.filter(
        (entry) => entry.threadId === threadId && entry.interruptId === interruptId,
      );
      // Each tab shows its own truth: the answer given here (applied with its own
      // decision, or answered elsewhere with the recorded one), else the newest.
      return matching.findLast((entry) => ownKeys.has(entry.key)) ?? matching.at(-1);
    },
    async retryNow(key) {
      const { engine: running } = await started();
      if (isLeader()) await running.retryNow(key);
      else tabs.broadcast({ type: "request", request: { kind: "retry-now", key } });
    },
    async discard(key) {
      const { store: opened, engine: running } = await started();
      await opened.delete(key);
      running.forget(key);
    },
    async resendAsMessage(key, text) {
      const { store: opened, engine: running } = await started();
      return resendAsMessage(
        {
          store: opened,
          engine: running,
          now: () => deps.now(),
          send: (threadId, message) => runner.send(threadId, message),
        },
        key,
        text,
      );
    },
    async resumeAfterAuth() {
      const { engine: running } = await started();
      setLink({ name: "connected", serverKind: serverKind() });
      if (isLeader()) {
        await running.resumeAfterAuth();
        await background.resumeAfterAuth();
      } else {
        tabs.broadcast({ type: "request", request: { kind: "resume-after-auth" } });
      }
    },
    async clear(target = namespace) {
      const { store: opened, engine: running } = await started();
      if (target !== namespace) {
        await opened.clear(target);
        return;
      }
      await signOut({ namespace, store: opened, engine: running, background, threads, ownKeys, isLeader });
    },
    dispose() {
      // Aborts the lifetime: listeners go, capabilities stop, an owned store closes, a start ends.
      lifecycle.dispatch({ type: "dispose" });
      sink.track(tabs.stop(), ErrorSource.tabs);
      leadership.stop();
      engine?.deactivate();
      background.dispose();
      runner.dispose();
      connectionStore.setState({ link: { name: "stopped" }, leader: false });
    },
  };
}
