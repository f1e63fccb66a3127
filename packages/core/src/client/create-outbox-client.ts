import { createStore, type StoreApi } from "zustand/vanilla";
import { InvalidAnswerError, loadAnswerValidator } from "../answer/answer-validator";
import { buildResumeBody } from "../answer/build-resume-body";
import { decisionOf, sameDecision } from "../answer/decision";
import { BackgroundRuns } from "../background/index";
import { DeliveryEngine } from "../delivery/delivery-engine";
import { ErrorKind, isOutboxError, OutboxError } from "../errors/outbox-error";
import type { OutboxEntry } from "../outbox/entry";
import { MemoryStore } from "../outbox/memory-store";
import { openOutboxStore } from "../outbox/open-store";
import type { OutboxStore } from "../outbox/outbox-store";
import { createEntry, DEFAULT_RETENTION_MS, reduceEntry } from "../outbox/reducer";
import { buildResumeResolution } from "../outcome/degraded-payload";
import type { ServerKind } from "../outcome/delivery-signal";
import { MetadataKey, RecoveryCapabilitySchema } from "../protocol";
import { backoffDelay } from "../retry/backoff";
import { parseRetryAfter } from "../retry/retry-after";
import { requestPersistentStorage } from "../storage/request-persistence";
import { DEFAULT_MAX_EVENT_BYTES } from "../stream/read-event-stream";
import { DEFAULT_STALL_TIMEOUT_MS } from "../stream/watchdog";
import { createEntryChangeTracker } from "../tabs/entry-changes";
import { createTabCoordinator } from "../tabs/tab-coordinator";
import type { TabMessage } from "../tabs/tab-message";
import { readonlyStore, ThreadRegistry } from "../thread/thread-registry";
import { ThreadRunner } from "../thread/thread-runner";
import type { PendingInterrupt } from "../thread/thread-state";
import { isAbsentRoute } from "../transport/absent-route";
import { AgentHttp } from "../transport/agent-http";
import type { AnswerInput, OutboxClient, OutboxClientOptions, ThreadHandle } from "./client-types";
import { defaultDeps, type OutboxDeps } from "./deps";
import {
  type ConnectionState,
  initialConnectionState,
  initialOutboxState,
  type OutboxState,
} from "./outbox-state";

export { sameDecision } from "../answer/decision";
export type {
  AnswerInput,
  BackgroundApi,
  OutboxClient,
  OutboxClientOptions,
  ThreadHandle,
} from "./client-types";

const CAPABILITIES_META_ID = "server-kind";

export function createOutboxClient(options: OutboxClientOptions): OutboxClient {
  const deps: OutboxDeps = { ...defaultDeps(), ...options.deps };
  const namespace = options.namespace;
  const outboxStore: StoreApi<OutboxState> = createStore<OutboxState>()(() => initialOutboxState);
  const connectionStore: StoreApi<ConnectionState> = createStore<ConnectionState>()(() => ({
    ...initialConnectionState,
    online: deps.online.get(),
  }));
  // Tabs: every event this tab applies is mirrored by the others; `tabs` is
  // assigned below, before anything can apply an event.
  const threads = new ThreadRegistry((threadId, event) => {
    tabs.broadcast({ type: "thread-event", threadId, event });
  });
  const changes = createEntryChangeTracker();
  /** True while a change that is not to be announced is applied (one that came from another tab). */
  let applyingRemote = false;
  const http = new AgentHttp({
    url: options.url.replace(/\/$/, ""),
    fetch: deps.fetch,
    now: deps.now,
    parseRetryAfter: (value, now) => parseRetryAfter(value, now),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const serverKind = (): ServerKind => connectionStore.getState().serverKind;
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
  });

  let store: OutboxStore | undefined;
  const background = new BackgroundRuns({
    namespace,
    url: options.url.replace(/\/$/, ""),
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
  /** A store the app passed in is the app's to close; one this client opened is closed by `dispose`. */
  let ownsStore = false;
  let engine: DeliveryEngine | undefined;
  let starting: Promise<void> | undefined;
  let disposed = false;
  let capabilitiesTimer: unknown;
  const unsubscribers: Array<() => void> = [];
  const handles = new Map<string, ThreadHandle>();

  const setLink = (link: ConnectionState["link"]) => connectionStore.setState({ link });

  async function openStore(): Promise<OutboxStore> {
    const choice = options.storage ?? "indexeddb";
    if (choice === "memory") {
      outboxStore.setState({ durable: false });
      return new MemoryStore();
    }
    if (typeof choice === "object") {
      outboxStore.setState({ durable: true });
      return choice;
    }
    ownsStore = true;
    const opened = await openOutboxStore({
      indexedDB: deps.indexedDB(),
      ...(options.dbName ? { dbName: options.dbName } : {}),
      onClose: (reason) => outboxStore.setState({ storageError: reason }),
    });
    outboxStore.setState(
      opened.durable
        ? { durable: true, storageError: null }
        : { durable: false, storageError: opened.fallbackReason },
    );
    return opened.store;
  }

  async function setServerKind(kind: ServerKind): Promise<void> {
    connectionStore.setState({ serverKind: kind });
    setLink(
      connectionStore.getState().online ? { name: "connected", serverKind: kind } : { name: "offline" },
    );
    await store?.putMeta(namespace, CAPABILITIES_META_ID, kind).catch(() => {});
  }

  async function refreshCapabilities(attempt = 0): Promise<void> {
    try {
      const capabilities = await http.capabilities();
      const recovery = RecoveryCapabilitySchema.safeParse(capabilities.custom?.[MetadataKey.recovery]);
      await setServerKind(recovery.success ? "contract" : "degraded");
    } catch (error) {
      if (disposed) return;
      // A server that has no capabilities route at all (Agent Framework's AG-UI
      // endpoint answers 404) has no contract either: that is an answer, not an outage.
      if (isOutboxError(error) && error.kind === ErrorKind.http && isAbsentRoute(error.status)) {
        await setServerKind("degraded");
        return;
      }
      const delay = backoffDelay(attempt, { random: deps.random });
      setLink({
        name: "unreachable",
        reason: isOutboxError(error) ? error.message : "The agent could not be reached.",
        retryAt: deps.now() + delay,
      });
      capabilitiesTimer = deps.timers.setTimeout(() => void refreshCapabilities(attempt + 1), delay);
    }
  }

  /** True when a server kind from an earlier start was found in storage. */
  async function loadCachedServerKind(opened: OutboxStore): Promise<boolean> {
    const cached = await opened.getMeta(namespace, CAPABILITIES_META_ID).catch(() => undefined);
    if (cached !== "contract" && cached !== "degraded") return false;
    connectionStore.setState({ serverKind: cached });
    return true;
  }

  /*
   * Start, with the recovery path kept short:
   *
   *   tabs.start() (channel open, lock asked) ──┐ messages from other tabs wait in `early`
   *   open storage ─▶ read kind + entries + background runs ─▶ ready ─▶ `loaded`
   *   capabilities GET ─────────────────────────┐                        │
   *   lock granted ─▶ leadership: await loaded ─▶ (kind known) ─▶ activate: send
   *
   * The channel is open before storage is read, so whatever another tab commits
   * after that read reaches this tab as a message: a tab that holds the lock by
   * the time the first read is done need not read storage again.
   * With a server kind cached by an earlier start, recovered entries go out
   * while capabilities refresh: their bodies were fixed when they were answered,
   * for the kind known then, and every outcome is classified with the kind in
   * force when it arrives (the refreshed one, once the refresh has answered).
   * Without a cached kind, sending waits for the first capabilities answer.
   */
  async function doStart(): Promise<void> {
    const joined = tabs.start();
    joined.catch(() => {});
    try {
      await openAndLoad();
    } catch (error) {
      // Do not hold the lock for a tab that will never send.
      void tabs.stop();
      throw error;
    }
    const refreshed = refreshCapabilities();
    if (!kindWasCached) await refreshed;
    markKindKnown();
    unsubscribers.push(
      deps.online.subscribe((online) => {
        connectionStore.setState({ online });
        if (online) {
          setLink({ name: "connected", serverKind: serverKind() });
          if (tabs.state.leader) engine?.retryNetworkWaitsNow();
        } else {
          setLink({ name: "offline" });
        }
      }),
      deps.visible.subscribe((visible) => {
        if (visible && tabs.state.leader) engine?.retryNetworkWaitsNow();
      }),
    );
    await joined;
    // `start()` resolves with the server kind current, as it always has.
    await refreshed;
  }

  async function openAndLoad(): Promise<void> {
    store = await openStore();
    if (options.requestPersistence !== false && outboxStore.getState().durable) {
      void requestPersistentStorage(deps.storageManager());
    }
    engine = new DeliveryEngine({
      namespace,
      store,
      http,
      threads,
      deps,
      serverKind,
      hydrate: (threadId) => runner.hydrate(threadId),
      publish: (entries, key, entry) => {
        outboxStore.setState({ entries });
        const { changed, removed } =
          key === undefined ? changes.observe(entries) : changes.observeEntry(key, entry);
        if (applyingRemote) return;
        for (const entry of changed) tabs.broadcast({ type: "entry-changed", entry });
        if (removed.length > 0) tabs.broadcast({ type: "entries-removed", keys: removed });
      },
      onPaused: (entry) => {
        setLink({ name: "paused", reason: "unauthorized" });
        options.onAuthRequired?.(entry);
      },
      stallTimeoutMs,
      maxEventBytes,
      retry: options.retry ?? {},
      maxReattachesWithoutProgress: 2,
    });
    // Three independent reads, side by side.
    const [cached] = await Promise.all([loadCachedServerKind(store), engine.load(), background.resumeAll()]);
    kindWasCached = cached;
    outboxStore.setState({ ready: true });
    for (const message of early.splice(0)) onTabMessage(message);
    markLoaded();
  }

  /** Leadership changes run one after another, so a quick loss never races a takeover. */
  let leadership: Promise<void> = Promise.resolve();
  /** Messages from other tabs that arrived before the engine was loaded: applied right after. */
  const early: TabMessage[] = [];
  let loadedOnce = false;
  let kindWasCached = false;
  let markLoaded = () => {};
  const loaded = new Promise<void>((resolve) => {
    markLoaded = () => {
      loadedOnce = true;
      resolve();
    };
  });
  let markKindKnown = () => {};
  const kindKnown = new Promise<void>((resolve) => {
    markKindKnown = resolve;
  });

  function onLeadershipChange(isLeader: boolean): void {
    connectionStore.setState({ leader: isLeader });
    if (!isLeader) {
      engine?.deactivate();
      background.deactivate();
      return;
    }
    // Granted before the first read finished: that read (begun with the channel
    // open) is recent enough. Granted later: read again.
    const reread = loadedOnce;
    leadership = leadership.then(async () => {
      await loaded;
      if (!engine || disposed) return;
      // Followers may have written answers while no tab led: read them all.
      if (reread) await engine.load();
      await kindKnown;
      if (tabs.state.leader && !disposed) {
        await engine.activate();
        await background.resumeAll();
        background.activate();
      }
    });
  }

  /**
   * Applies a change without announcing it to other tabs: it came from one, or
   * it is announced by its own message.
   */
  function silently(apply: () => void): void {
    applyingRemote = true;
    try {
      apply();
    } finally {
      applyingRemote = false;
    }
  }

  function onTabMessage(message: TabMessage): void {
    if (!loadedOnce) {
      early.push(message);
      return;
    }
    const running = engine;
    switch (message.type) {
      case "entry-changed":
        if (!running) return;
        silently(() => running.adopt(message.entry));
        if (["applied", "elsewhere", "lost"].includes(message.entry.state)) {
          threads.dropInterrupt(message.entry.threadId, message.entry.interruptId);
        }
        return;
      case "entry-added":
        if (!running || !store) return;
        void store
          .get(message.key)
          .catch(() => undefined)
          .then((stored) => silently(() => running.adopt(stored ?? message.entry)));
        return;
      case "entries-removed":
        if (!running) return;
        silently(() => {
          for (const key of message.keys) running.forget(key);
        });
        return;
      case "thread-event":
        threads.applyRemote(message.threadId, message.event);
        return;
      case "request":
        if (!running || !tabs.state.leader) return;
        if (message.request.kind === "retry-now") void running.retryNow(message.request.key);
        if (message.request.kind === "retry-all") running.retryNetworkWaitsNow();
        if (message.request.kind === "resume-background") void background.resumeAll();
        if (message.request.kind === "resume-after-auth") {
          void running.resumeAfterAuth();
          void background.resumeAfterAuth();
        }
        return;
      default:
        return;
    }
  }

  const tabs = createTabCoordinator({
    namespace,
    locks: deps.locks,
    openChannel: deps.openChannel,
    createTabId: deps.randomUUID,
    onLeadershipChange,
    onMessage: onTabMessage,
  });

  function start(): Promise<void> {
    if (disposed) return Promise.reject(new OutboxError(ErrorKind.disposed, "The client was disposed."));
    starting ??= doStart();
    return starting;
  }

  async function started(): Promise<{ store: OutboxStore; engine: DeliveryEngine }> {
    await start();
    if (!store || !engine) throw new OutboxError(ErrorKind.disposed, "The client was disposed.");
    return { store, engine };
  }

  function findInterrupt(threadId: string, interruptId: string): PendingInterrupt | undefined {
    return threads.get(threadId).pendingInterrupts.find((interrupt) => interrupt.id === interruptId);
  }

  async function answer(input: AnswerInput): Promise<OutboxEntry> {
    const { store: opened, engine: running } = await started();
    const decision = decisionOf(input);
    const interrupt = findInterrupt(input.threadId, input.interruptId);
    if (!interrupt) {
      const existing = running
        .entries()
        .find((entry) => entry.threadId === input.threadId && entry.interruptId === input.interruptId);
      if (existing && sameDecision(existing.decision, decision)) return existing;
      throw new OutboxError(
        ErrorKind.unknownInterrupt,
        `Interrupt ${input.interruptId} is not pending in thread ${input.threadId}; hydrate the thread first.`,
      );
    }
    // The payload is shaped for the server in front of us (contract or degraded
    // rules), and that exact payload is what the interrupt's schema must accept.
    const resolution = buildResumeResolution(decision, {
      serverKind: serverKind(),
      responseSchema: interrupt.responseSchema,
    });
    if (resolution.status === "resolved" && interrupt.responseSchema) {
      const checkAnswer = await loadAnswerValidator();
      const check = checkAnswer(resolution.payload, interrupt.responseSchema);
      if (!check.valid) throw new InvalidAnswerError(check.violations);
    }
    const key = deps.randomUUID();
    const runId = deps.randomUUID();
    const now = deps.now();
    const fresh = createEntry({
      key,
      namespace,
      threadId: input.threadId,
      interruptId: input.interruptId,
      runId,
      body: buildResumeBody({
        threadId: input.threadId,
        runId,
        interruptId: input.interruptId,
        idempotencyKey: key,
        resolution,
      }),
      decision,
      now,
      retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
    });
    const entry: OutboxEntry = interrupt.toolCallId ? { ...fresh, toolCallId: interrupt.toolCallId } : fresh;
    const result = await opened.putIfAbsentForInterrupt(entry);
    if (result.inserted) {
      // The write has committed: resolve now, with the entry already in the outbox
      // state. Telling the other tabs and starting the send (whose first step is
      // the durable `sending` write) wait for the next task, off the path of the
      // caller awaiting the commit.
      const inserted = result.entry;
      deps.timers.setTimeout(() => {
        tabs.broadcast({ type: "entry-added", key: inserted.key, entry: inserted });
      }, 0);
      silently(() => running.adopt(inserted, { sendAfterThisTask: true }));
      return inserted;
    }
    const existing = result.existing;
    running.adopt(existing);
    if (sameDecision(existing.decision, decision)) return existing;
    // Another answer for this interrupt is already on its way (this tab or another
    // one sharing the database): it wins. Keep this one, final, saying so.
    const elsewhere = reduceEntry(entry, {
      type: "verdict",
      at: now,
      verdict: {
        kind: "elsewhere",
        rule: "local-conflict",
        reason: "Another answer to this question was already sent from this browser; it takes precedence.",
        error: null,
        recordedDecisions: [],
      },
    });
    await opened.put(elsewhere);
    running.adopt(elsewhere);
    return elsewhere;
  }

  function thread(threadId: string): ThreadHandle {
    let handle = handles.get(threadId);
    if (!handle) {
      handle = {
        threadId,
        store: threads.store(threadId),
        send: async (text) => {
          await start();
          await runner.send(threadId, text);
        },
        hydrate: async () => {
          await start();
          await runner.hydrate(threadId);
        },
      };
      handles.set(threadId, handle);
    }
    return handle;
  }

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
    },
    connection: readonlyStore(connectionStore),
    start,
    thread,
    answer,
    entryFor(threadId, interruptId) {
      const matching = outboxStore
        .getState()
        .entries.filter((entry) => entry.threadId === threadId && entry.interruptId === interruptId);
      return matching.at(-1);
    },
    async retryNow(key) {
      const { engine: running } = await started();
      if (tabs.state.leader) await running.retryNow(key);
      else tabs.broadcast({ type: "request", request: { kind: "retry-now", key } });
    },
    async discard(key) {
      const { store: opened, engine: running } = await started();
      await opened.delete(key);
      running.forget(key);
    },
    async resumeAfterAuth() {
      const { engine: running } = await started();
      setLink({ name: "connected", serverKind: serverKind() });
      if (tabs.state.leader) {
        await running.resumeAfterAuth();
        await background.resumeAfterAuth();
      } else {
        tabs.broadcast({ type: "request", request: { kind: "resume-after-auth" } });
      }
    },
    async clear(target = namespace) {
      const { store: opened, engine: running } = await started();
      await opened.clear(target);
      if (target === namespace) {
        running.deactivate();
        await running.load();
        threads.clear();
        await background.reset();
        if (tabs.state.leader) await running.activate();
      }
    },
    dispose() {
      disposed = true;
      void tabs.stop();
      engine?.deactivate();
      background.dispose();
      runner.dispose();
      if (capabilitiesTimer !== undefined) deps.timers.clearTimeout(capabilitiesTimer);
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
      connectionStore.setState({ link: { name: "stopped" }, leader: false });
      if (ownsStore) store?.close();
    },
  };
}
