import { defaultTimers, type Timers } from "../stream/timers";
import { defaultOpenChannel, type MessageEventLike } from "./channel";
import { defaultLocks, type LockManagerLike, type LockRequestOptionsLike } from "./lock-manager";
import {
  checkThreadEvents,
  fromWire,
  orderedReader,
  parseTabEnvelope,
  TAB_PROTOCOL,
  TAB_PROTOCOL_VERSION,
  type TabMessage,
  TabMessageType,
  toWire,
} from "./tab-message";
import {
  AnnounceResult,
  DEFAULT_ANNOUNCE_ACK_MS,
  DEFAULT_RESCAN_INTERVAL_MS,
  DropReason,
  TAB_NAME_PREFIX,
  type TabCoordinator,
  type TabCoordinatorOptions,
  type TabSession,
  type TabState,
  UnsupportedReason,
} from "./tab-state";

export * from "./tab-state";

/*
 * One sender per origin and namespace: the leader holds the exclusive Web Lock
 * `agui-outbox:<namespace>` for the tab's life (its callback settles on stop());
 * the browser releases it when the tab closes, and the next queued tab leads.
 *
 *   start() ─ no locks / no channel / request refused ─▶ leader, unsupported (every tab sends;
 *      │                                                   keys make a double send harmless)
 *      └─ request(ifAvailable) ─ granted ─▶ leader ─ stop() ─▶ onLeadershipChange(false), release
 *               └─ null ─▶ follower: request(queued) ─ granted on release ─▶ leader
 *
 * The leader acks a follower's new answer and rescans storage on `hello` and a
 * slow tick. `hello`/`leader`/`here`/`bye` tell each tab whether another is there
 * (`others`). Other tabs are untrusted: bad, foreign and own messages are dropped.
 */

const rethrowLater = (error: unknown) =>
  queueMicrotask(() => {
    throw error;
  });

export function createTabCoordinator(options: TabCoordinatorOptions): TabCoordinator {
  const { namespace } = options;
  const lockName = options.lockName ?? `${TAB_NAME_PREFIX}${namespace}`;
  const channelName = options.channelName ?? `${TAB_NAME_PREFIX}${namespace}`;
  const tabId = (options.createTabId ?? (() => globalThis.crypto.randomUUID()))();
  const onError = options.onError ?? rethrowLater;
  const base = { protocol: TAB_PROTOCOL, version: TAB_PROTOCOL_VERSION, from: tabId, namespace } as const;
  const timers: Timers = options.timers ?? defaultTimers;
  const acks = new Set<{ readonly key: string; readonly settle: (result: AnnounceResult) => void }>();
  const initial = { leader: false, supported: false, unsupportedReason: null, leaderTabId: null, others: 0 };
  let state: TabState = { tabId, started: false, ...initial };
  let session: TabSession | undefined;
  const setState = (patch: Partial<TabState>) => {
    state = { ...state, ...patch };
  };

  function guarded(call: (() => void) | undefined): void {
    try {
      call?.();
    } catch (error) {
      onError(error);
    }
  }

  function post(current: TabSession, message: TabMessage): boolean {
    if (!current.channel || current.stopped) return false;
    try {
      current.channel.postMessage({ ...base, message: toWire(message) });
      return true;
    } catch {
      // Uncloneable or closed: a mirror misses one update; storage stays the truth.
      return false;
    }
  }

  function becomeLeader(current: TabSession, supported: boolean, reason: UnsupportedReason | null): void {
    if (current.stopped || state.leader) return;
    setState({ leader: true, supported, unsupportedReason: reason, leaderTabId: tabId });
    guarded(() => options.onLeadershipChange(true));
    post(current, { type: TabMessageType.leader, tabId });
    if (supported) scheduleTick(current);
  }

  function scheduleTick(current: TabSession): void {
    current.tick = timers.setTimeout(() => {
      current.tick = undefined;
      if (current.stopped || !state.leader) return;
      guarded(options.onRescan);
      scheduleTick(current);
    }, options.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS);
  }

  /** Settles the announcements waiting for `key` (all, without one). */
  function settleAcks(key: string | undefined, result: AnnounceResult): void {
    for (const ack of [...acks]) if (key === undefined || ack.key === key) ack.settle(result);
  }

  function hold(current: TabSession): Promise<void> | undefined {
    if (current.stopped) return undefined;
    becomeLeader(current, true, null);
    return current.released;
  }

  function loseLeadership(): void {
    if (!state.leader) return;
    // The rescan tick runs only while this tab leads.
    if (session?.tick !== undefined) timers.clearTimeout(session.tick);
    setState({ leader: false, leaderTabId: state.leaderTabId === tabId ? null : state.leaderTabId });
    guarded(() => options.onLeadershipChange(false));
  }

  function onLockSettled(current: TabSession, locks: LockManagerLike, error: unknown): void {
    if (current.stopped) return;
    if (error !== undefined && !state.leader) {
      becomeLeader(current, false, UnsupportedReason.lockRequestFailed);
    } else if (state.supported && state.leader) {
      // The lock was taken from us (a steal): stop sending, then queue again.
      loseLeadership();
      queue(current, locks);
    }
  }

  /** Asks for the lock; `then` runs once the request settles. */
  function ask(
    current: TabSession,
    locks: LockManagerLike,
    ifAvailable: boolean,
    callback: (lock: unknown) => unknown,
    then: (value: unknown) => void,
    after = () => {},
  ): void {
    // [spec] ifAvailable cannot be combined with a signal; it never queues, so it needs none.
    const how: LockRequestOptionsLike = ifAvailable ? { ifAvailable } : { signal: current.abort.signal };
    let pending: Promise<unknown>;
    try {
      pending = locks.request(lockName, { mode: "exclusive", ...how }, callback);
    } catch (error) {
      pending = Promise.reject(error);
    }
    const failed = (error: unknown) =>
      onLockSettled(current, locks, error ?? new Error("lock request failed"));
    current.requests.push(pending.then(then, failed).finally(after));
  }

  function queue(current: TabSession, locks: LockManagerLike): void {
    const callback = (lock: unknown) => (lock ? hold(current) : undefined);
    ask(current, locks, false, callback, () => onLockSettled(current, locks, undefined));
  }

  function acquire(current: TabSession, locks: LockManagerLike): Promise<void> {
    return new Promise<void>((roleKnown) => {
      const callback = (lock: unknown) => {
        if (!lock) return false;
        const held = hold(current);
        roleKnown();
        return held?.then(() => true) ?? false;
      };
      const settled = (granted: unknown) => {
        if (!granted && !current.stopped && !state.leader) queue(current, locks);
        else onLockSettled(current, locks, undefined);
      };
      ask(current, locks, true, callback, settled, roleKnown);
    });
  }

  const inbox = orderedReader(read, () => drop(DropReason.unreadable));

  /** `false` when the message must wait for the event schemas. */
  function read(data: unknown): boolean {
    const current = session;
    if (!current || current.stopped) return true;
    const parsed = parseTabEnvelope(fromWire(data));
    const envelope = parsed === undefined ? null : checkThreadEvents(parsed);
    if (envelope === undefined) return false;
    if (envelope === null) return drop(DropReason.malformed);
    if (envelope.namespace !== namespace) return drop(DropReason.otherNamespace);
    if (envelope.from === tabId) return drop(DropReason.ownMessage);
    const { message, from } = envelope;
    if (message.type === TabMessageType.bye) current.others.delete(from);
    else current.others.add(from);
    if (state.others !== current.others.size) setState({ others: current.others.size });
    if ("entry" in message && message.entry.namespace !== namespace) return drop(DropReason.otherNamespace);
    if (message.type === TabMessageType.leader) setState({ leaderTabId: message.tabId });
    if (message.type === TabMessageType.hello) {
      post(current, state.leader ? { type: TabMessageType.leader, tabId } : { type: TabMessageType.here });
      // A joining tab may have written while no message reached us.
      if (state.leader) guarded(options.onRescan);
    }
    if (message.type === TabMessageType.entryAdded && state.leader) {
      post(current, { type: TabMessageType.entryAck, key: message.key });
    }
    if (message.type === TabMessageType.entryAck) settleAcks(message.key, AnnounceResult.acknowledged);
    guarded(() => options.onMessage(message, from));
    return true;
  }

  function onChannelMessage(event: MessageEventLike): void {
    if (session && !session.stopped) inbox.push(event.data);
  }

  function drop(reason: DropReason): true {
    guarded(options.onDropped && (() => options.onDropped?.(reason)));
    return true;
  }

  function start(): Promise<void> {
    if (session && !session.stopped) return session.starting;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const current: TabSession = {
      stopped: false,
      abort: new AbortController(),
      release,
      released,
      requests: [],
      channel: (options.openChannel ?? defaultOpenChannel)(channelName),
      starting: Promise.resolve(),
      tick: undefined,
      others: new Set(),
    };
    session = current;
    setState({ started: true, ...initial });
    current.channel?.addEventListener("message", onChannelMessage);
    post(current, { type: TabMessageType.hello });
    const locks = (options.locks ?? defaultLocks)();
    if (locks && current.channel) {
      setState({ supported: true });
      current.starting = acquire(current, locks);
    } else {
      becomeLeader(
        current,
        false,
        locks ? UnsupportedReason.noBroadcastChannel : UnsupportedReason.noWebLocks,
      );
    }
    return current.starting;
  }

  async function stop(): Promise<void> {
    const current = session;
    if (!current || current.stopped) return;
    post(current, { type: TabMessageType.bye });
    current.stopped = true;
    // Report first, release after: the next leader must not start while this one sends.
    loseLeadership();
    settleAcks(undefined, AnnounceResult.noAck);
    setState({ started: false, others: 0 });
    current.abort.abort(new DOMException("The tab coordinator stopped.", "AbortError"));
    current.release();
    current.channel?.removeEventListener("message", onChannelMessage);
    current.channel?.close();
    await Promise.allSettled(current.requests);
  }

  function announce(key: string, message: TabMessage): Promise<AnnounceResult> {
    if (state.leader) return Promise.resolve(AnnounceResult.self);
    if (!session || !post(session, message) || state.leaderTabId === null) {
      // Nobody is known to listen: the next leader reads storage when it takes over.
      return Promise.resolve(AnnounceResult.noLeader);
    }
    return new Promise<AnnounceResult>((resolve) => {
      const ms = options.announceAckMs ?? DEFAULT_ANNOUNCE_ACK_MS;
      const handle = timers.setTimeout(() => settleAcks(key, AnnounceResult.noAck), ms);
      const ack = {
        key,
        settle: (result: AnnounceResult) => {
          acks.delete(ack);
          timers.clearTimeout(handle);
          resolve(result);
        },
      };
      acks.add(ack);
    });
  }

  return {
    start,
    stop,
    announce,
    broadcast: (message) => (session ? post(session, message) : false),
    get state() {
      return state;
    },
  };
}
