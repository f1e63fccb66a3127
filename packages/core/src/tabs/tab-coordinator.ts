import { loadEventValidator, loadedEventValidator } from "../stream/load-event-validator";
import { isValidSimpleEvent } from "../stream/simple-event-check";
import { defaultTimers, type Timers } from "../stream/timers";
import { type ChannelFactory, type ChannelLike, defaultOpenChannel, type MessageEventLike } from "./channel";
import { defaultLocks, type LockManagerLike, type LockManagerSource } from "./lock-manager";
import { parseTabEnvelope, type TabEnvelope, type TabMessage } from "./tab-message";
import { TAB_PROTOCOL, TAB_PROTOCOL_VERSION, TabMessageType } from "./tab-protocol";

/*
 * One sender per origin and namespace. Leadership is holding the exclusive Web
 * Lock `agui-outbox:<namespace>`; the lock callback returns a promise that only
 * settles on stop(), so the lock is held for the tab's life and the browser
 * releases it when the tab closes or crashes. Every other tab waits in the
 * lock's queue and is granted it the moment it is released:
 *
 *   start()
 *     ├─ no Web Locks / no BroadcastChannel / lock request refused
 *     │     └─▶ leader (supported: false): every such tab sends; idempotency keys
 *     │         make a double send harmless, a missing send would not be
 *     └─ request(ifAvailable) ─ granted ─▶ leader ──────────────┐
 *              └─ null ─▶ follower: request(queued, signal) ─┐  │
 *                                 granted on release ◀───────┘  │
 *                                         └──────────▶ leader ──┴─ stop() ─▶ onLeadershipChange(false),
 *                                                                            then the lock is released
 *
 * A follower's new answer is announced before `answer()` resolves, and the
 * leader acknowledges it; the leader also re-reads storage (`onRescan`) when a
 * tab says hello and on a slow tick, so an answer whose message was lost (its
 * tab closed in the same task) waits for the tick at worst, never for a reload:
 *
 *   follower: commit ─▶ entry-added ─▶ leader acks ─▶ answer() resolves
 *                                  └─ no leader known, or no ack in time ─▶ resolves (the tick finds it)
 *
 * Every tab answers a `hello` (the leader with `leader`, the others with `here`) and
 * says `bye` on stop, so each knows whether another tab is there (`others`): a tab
 * alone posts no thread events, which is most of what tabs would tell each other.
 *
 * Tabs talk over one BroadcastChannel per namespace. Every message is wrapped in
 * an envelope naming the sender, and parsed on arrival: other tabs are untrusted
 * input, so anything malformed, from another namespace, or from this tab is
 * dropped without a throw.
 */

/** Prefix of the lock and channel names: `agui-outbox:<namespace>`. */
export const TAB_NAME_PREFIX = "agui-outbox:";

export const UnsupportedReason = {
  /** `navigator.locks` is missing (SSR, Node, old browsers, insecure origins). */
  noWebLocks: "no-web-locks",
  /** `BroadcastChannel` is missing: followers could not hand answers to a leader. */
  noBroadcastChannel: "no-broadcast-channel",
  /** The lock request was refused (for example a sandboxed, opaque-origin frame). */
  lockRequestFailed: "lock-request-failed",
} as const;
export type UnsupportedReason = (typeof UnsupportedReason)[keyof typeof UnsupportedReason];

/** Why an incoming message was ignored. Never the message itself: it may hold answers. */
export const DropReason = {
  malformed: "malformed",
  /** A thread event waited for the AG-UI event schemas, which could not be loaded (offline, say). */
  unreadable: "unreadable",
  otherNamespace: "other-namespace",
  ownMessage: "own-message",
} as const;
export type DropReason = (typeof DropReason)[keyof typeof DropReason];

/** How an announcement ended: heard by the leader, sent by the leader itself, or nobody known to listen. */
export const AnnounceResult = {
  acknowledged: "acknowledged",
  self: "self",
  noLeader: "no-leader",
  noAck: "no-ack",
} as const;
export type AnnounceResult = (typeof AnnounceResult)[keyof typeof AnnounceResult];

/** How long a follower waits for the leader's acknowledgement. */
export const DEFAULT_ANNOUNCE_ACK_MS = 1_000;
/** The leader's slow re-read of storage. */
export const DEFAULT_RESCAN_INTERVAL_MS = 30_000;

export interface TabState {
  /** This tab's id, as it appears in `from` and in `leader` announcements. */
  readonly tabId: string;
  /** Between `start()` and `stop()`. */
  readonly started: boolean;
  /** This tab sends for the namespace. */
  readonly leader: boolean;
  /** Web Locks and BroadcastChannel are both usable; false means "always leader". */
  readonly supported: boolean;
  readonly unsupportedReason: UnsupportedReason | null;
  /** The last tab that announced leadership (this tab's id while it leads), if known. */
  readonly leaderTabId: string | null;
  /** Other tabs heard from since `start()` that have not said `bye`. */
  readonly others: number;
}

export interface TabCoordinatorOptions {
  /** The signed-in user (or other isolation scope); one leader per namespace. */
  readonly namespace: string;
  /**
   * Where the Web Locks API comes from, asked on each `start()`.
   * @default defaultLocks (`navigator.locks` at call time)
   */
  readonly locks?: LockManagerSource;
  /**
   * Opens the namespace's channel on each `start()`.
   * @default defaultOpenChannel (`new BroadcastChannel(name)` at call time)
   */
  readonly openChannel?: ChannelFactory;
  /** @default `agui-outbox:<namespace>` */
  readonly lockName?: string;
  /** @default `agui-outbox:<namespace>` (a separate name space from locks in browsers) */
  readonly channelName?: string;
  /**
   * This tab's id, generated once per coordinator.
   * @default () => crypto.randomUUID()
   */
  readonly createTabId?: () => string;
  /**
   * Called with `true` when this tab becomes the sender and with `false` on
   * `stop()` of a leader, before the lock is released, so a new leader never
   * starts while this one still sends.
   */
  readonly onLeadershipChange: (isLeader: boolean) => void;
  /** Every valid message from another tab of the same namespace. */
  readonly onMessage: (message: TabMessage, from: string) => void;
  /**
   * The leader should read storage again: a tab said hello, or the slow tick
   * came round. @default no-op
   */
  readonly onRescan?: () => void;
  /** @default DEFAULT_RESCAN_INTERVAL_MS (30 s) */
  readonly rescanIntervalMs?: number;
  /** @default DEFAULT_ANNOUNCE_ACK_MS (1 s) */
  readonly announceAckMs?: number;
  /** Timers for the tick and the acknowledgement wait. @default globalThis timers */
  readonly timers?: Timers;
  /** Called for each ignored message, with the reason only. @default no-op */
  readonly onDropped?: (reason: DropReason) => void;
  /**
   * A callback above threw. The coordinator keeps its state consistent and
   * reports the error here.
   * @default rethrows in a microtask (reaches `window.onerror`, never the lock logic)
   */
  readonly onError?: (error: unknown) => void;
}

export interface TabCoordinator {
  /**
   * Joins the namespace: opens the channel, says hello, and asks for the lock.
   * Resolves once this tab knows its first role (leader, or queued follower).
   * Idempotent while started; a stopped coordinator can start again.
   */
  start(): Promise<void>;
  /**
   * Leaves: a leader reports `false`, then releases the lock (the next tab in
   * the queue takes over); a follower leaves the queue. Resolves once the lock
   * requests have settled.
   */
  stop(): Promise<void>;
  /**
   * Sends to every other tab of the namespace. Returns false when nothing was
   * sent (not started, no channel, or the message could not be cloned).
   */
  broadcast(message: TabMessage): boolean;
  /**
   * Tells the leader about an answer this tab committed, and resolves once the
   * leader acknowledged it, or at once when this tab leads or no leader is known
   * to listen, or after `announceAckMs` without an answer. Never rejects.
   */
  announce(key: string, message: TabMessage): Promise<AnnounceResult>;
  readonly state: TabState;
}

interface Session {
  stopped: boolean;
  readonly abort: AbortController;
  /** Resolving it ends the lock callback, which releases the lock. */
  readonly release: () => void;
  readonly released: Promise<void>;
  readonly requests: Promise<unknown>[];
  channel: ChannelLike | undefined;
  listener: ((event: MessageEventLike) => void) | undefined;
  /** Settles once the first role of this session is known. */
  starting: Promise<void>;
  /** The leader's rescan tick, while this session leads. */
  tick: unknown;
  /** Ids of the other tabs heard from and not gone. */
  readonly others: Set<string>;
}

const defaultCreateTabId = () => globalThis.crypto.randomUUID();
const rethrowLater = (error: unknown) =>
  queueMicrotask(() => {
    throw error;
  });

export function createTabCoordinator(options: TabCoordinatorOptions): TabCoordinator {
  const namespace = options.namespace;
  const lockName = options.lockName ?? `${TAB_NAME_PREFIX}${namespace}`;
  const channelName = options.channelName ?? `${TAB_NAME_PREFIX}${namespace}`;
  const tabId = (options.createTabId ?? defaultCreateTabId)();
  const onError = options.onError ?? rethrowLater;
  const timers: Timers = options.timers ?? defaultTimers;
  /** Announcements waiting for the leader's acknowledgement, by key. */
  const awaitingAck = new Map<string, Array<(result: AnnounceResult) => void>>();

  let state: TabState = {
    tabId,
    started: false,
    leader: false,
    supported: false,
    unsupportedReason: null,
    leaderTabId: null,
    others: 0,
  };
  let session: Session | undefined;

  const setState = (patch: Partial<TabState>) => {
    state = { ...state, ...patch };
  };

  function guarded(call: () => void): void {
    try {
      call();
    } catch (error) {
      onError(error);
    }
  }

  function post(current: Session, message: TabMessage): boolean {
    if (!current.channel || current.stopped) return false;
    const envelope: TabEnvelope = {
      protocol: TAB_PROTOCOL,
      version: TAB_PROTOCOL_VERSION,
      from: tabId,
      namespace,
      message,
    };
    try {
      current.channel.postMessage(envelope);
      return true;
    } catch {
      // An uncloneable value or a closed channel: the mirror misses one update;
      // the shared store stays the source of truth.
      return false;
    }
  }

  function becomeLeader(current: Session, supported: boolean, reason: UnsupportedReason | null): void {
    if (current.stopped || state.leader) return;
    setState({ leader: true, supported, unsupportedReason: reason, leaderTabId: tabId });
    guarded(() => options.onLeadershipChange(true));
    post(current, { type: TabMessageType.leader, tabId });
    if (supported) scheduleTick(current);
  }

  function scheduleTick(current: Session): void {
    current.tick = timers.setTimeout(() => {
      current.tick = undefined;
      if (current.stopped || !state.leader) return;
      rescan();
      scheduleTick(current);
    }, options.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS);
  }

  function stopTick(current: Session): void {
    if (current.tick === undefined) return;
    timers.clearTimeout(current.tick);
    current.tick = undefined;
  }

  function rescan(): void {
    if (options.onRescan) guarded(() => options.onRescan?.());
  }

  function settleAnnouncement(key: string, result: AnnounceResult): void {
    const waiting = awaitingAck.get(key);
    if (!waiting) return;
    awaitingAck.delete(key);
    for (const resolve of waiting) resolve(result);
  }

  /** The lock callback: lead until stop() (or until the lock is taken from us). */
  function hold(current: Session): Promise<void> | undefined {
    if (current.stopped) return undefined;
    becomeLeader(current, true, null);
    return current.released;
  }

  function loseLeadership(): void {
    if (!state.leader) return;
    if (session) stopTick(session);
    setState({ leader: false, leaderTabId: state.leaderTabId === tabId ? null : state.leaderTabId });
    guarded(() => options.onLeadershipChange(false));
  }

  function onLockSettled(current: Session, locks: LockManagerLike, error: unknown): void {
    if (current.stopped) return;
    if (error !== undefined && !state.leader) {
      // Refused outright (not an abort: we did not abort a live session).
      becomeLeader(current, false, UnsupportedReason.lockRequestFailed);
      return;
    }
    if (state.supported && state.leader) {
      // The lock ended while we still meant to hold it (stolen by another
      // context): stop sending first, then queue again like any follower.
      loseLeadership();
      queue(current, locks);
    }
  }

  function queue(current: Session, locks: LockManagerLike): void {
    let request: Promise<unknown>;
    try {
      request = locks.request(lockName, { mode: "exclusive", signal: current.abort.signal }, (lock) =>
        lock ? hold(current) : undefined,
      );
    } catch (error) {
      request = Promise.reject(error);
    }
    current.requests.push(
      request.then(
        () => onLockSettled(current, locks, undefined),
        (error: unknown) => onLockSettled(current, locks, error ?? new Error("lock request failed")),
      ),
    );
  }

  /** Resolves once the first role is known. */
  function acquire(current: Session, locks: LockManagerLike): Promise<void> {
    return new Promise<void>((roleKnown) => {
      let request: Promise<unknown>;
      try {
        // [spec] ifAvailable cannot be combined with a signal; it never queues, so it needs none.
        request = locks.request(lockName, { mode: "exclusive", ifAvailable: true }, (lock) => {
          if (!lock) return false;
          const held = hold(current);
          roleKnown();
          return held?.then(() => true) ?? false;
        });
      } catch (error) {
        request = Promise.reject(error);
      }
      current.requests.push(
        request.then(
          (granted) => {
            if (!granted && !current.stopped && !state.leader) queue(current, locks);
            else onLockSettled(current, locks, undefined);
            roleKnown();
          },
          (error: unknown) => {
            onLockSettled(current, locks, error ?? new Error("lock request failed"));
            roleKnown();
          },
        ),
      );
    });
  }

  // A thread event other than a run's ordinary ones waits, the first time, for the
  // AG-UI event schemas (stream/load-event-validator.ts); the messages after it wait
  // behind it, so a tab still reads every message in the order it was sent.
  const unread: MessageEventLike[] = [];

  function onChannelMessage(event: MessageEventLike): void {
    const current = session;
    if (!current || current.stopped) return;
    unread.push(event);
    if (unread.length === 1) readUnread();
  }

  function readUnread(): void {
    for (let next = unread[0]; next !== undefined; next = unread[0]) {
      const current = session;
      if (!current || current.stopped) {
        unread.length = 0;
        return;
      }
      const waiting = next;
      if (!read(current, waiting)) {
        loadEventValidator().then(readUnread, () => {
          if (unread[0] === waiting) unread.shift();
          drop(DropReason.unreadable);
          readUnread();
        });
        return;
      }
      unread.shift();
    }
  }

  /**
   * A thread message's `events` checked as the stream reader checks them: by hand, or
   * by the AG-UI schema once loaded. `undefined` when it waits for the schemas, `null`
   * when the schema refuses one of them.
   */
  function checkedEnvelope(envelope: TabEnvelope): TabEnvelope | null | undefined {
    const message = envelope.message;
    if (message.type !== TabMessageType.threadEvents || message.events.every(isValidSimpleEvent)) {
      return envelope;
    }
    const validate = loadedEventValidator();
    if (validate === undefined) return undefined;
    try {
      const events = message.events.map((event) =>
        isValidSimpleEvent(event) ? event : validate(event, undefined),
      );
      return { ...envelope, message: { ...message, events } };
    } catch {
      return null;
    }
  }

  /** Reads one message; `false` when it must wait for the event schemas (nothing read yet). */
  function read(current: Session, event: MessageEventLike): boolean {
    const parsed = parseTabEnvelope(event.data);
    const envelope = parsed === undefined ? null : checkedEnvelope(parsed);
    if (envelope === undefined) return false;
    if (envelope === null) {
      drop(DropReason.malformed);
      return true;
    }
    if (envelope.namespace !== namespace) {
      drop(DropReason.otherNamespace);
      return true;
    }
    if (envelope.from === tabId) {
      drop(DropReason.ownMessage);
      return true;
    }
    const message = envelope.message;
    hear(current, envelope.from, message.type !== TabMessageType.bye);
    if (
      (message.type === TabMessageType.entryChanged || message.type === TabMessageType.entryAdded) &&
      message.entry.namespace !== namespace
    ) {
      drop(DropReason.otherNamespace);
      return true;
    }
    if (message.type === TabMessageType.leader) setState({ leaderTabId: message.tabId });
    if (message.type === TabMessageType.hello && state.leader) {
      post(current, { type: TabMessageType.leader, tabId });
      // A tab that joins may have written while no message reached us.
      rescan();
    } else if (message.type === TabMessageType.hello) {
      post(current, { type: TabMessageType.here });
    }
    if (message.type === TabMessageType.entryAdded && state.leader) {
      post(current, { type: TabMessageType.entryAck, key: message.key });
    }
    if (message.type === TabMessageType.entryAck)
      settleAnnouncement(message.key, AnnounceResult.acknowledged);
    guarded(() => options.onMessage(message, envelope.from));
    return true;
  }

  /** Another tab is there (`present`), or said `bye`. */
  function hear(current: Session, from: string, present: boolean): void {
    if (present) current.others.add(from);
    else current.others.delete(from);
    if (state.others !== current.others.size) setState({ others: current.others.size });
  }

  function drop(reason: DropReason): void {
    if (options.onDropped) guarded(() => options.onDropped?.(reason));
  }

  function start(): Promise<void> {
    if (session && !session.stopped) return session.starting;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const current: Session = {
      stopped: false,
      abort: new AbortController(),
      release,
      released,
      requests: [],
      channel: undefined,
      listener: undefined,
      starting: Promise.resolve(),
      tick: undefined,
      others: new Set(),
    };
    session = current;
    setState({
      started: true,
      leader: false,
      supported: false,
      unsupportedReason: null,
      leaderTabId: null,
      others: 0,
    });

    const channel = (options.openChannel ?? defaultOpenChannel)(channelName);
    if (channel) {
      current.channel = channel;
      current.listener = onChannelMessage;
      channel.addEventListener("message", onChannelMessage);
      post(current, { type: TabMessageType.hello });
    }
    const locks = (options.locks ?? defaultLocks)();
    if (!locks || !channel) {
      becomeLeader(
        current,
        false,
        locks ? UnsupportedReason.noBroadcastChannel : UnsupportedReason.noWebLocks,
      );
      return current.starting;
    }
    setState({ supported: true });
    current.starting = acquire(current, locks);
    return current.starting;
  }

  async function stop(): Promise<void> {
    const current = session;
    if (!current || current.stopped) return;
    post(current, { type: TabMessageType.bye });
    current.stopped = true;
    // Report first, release after: the next leader must not start while this one sends.
    loseLeadership();
    stopTick(current);
    for (const key of [...awaitingAck.keys()]) settleAnnouncement(key, AnnounceResult.noAck);
    setState({ started: false, others: 0 });
    current.abort.abort(new DOMException("The tab coordinator stopped.", "AbortError"));
    current.release();
    if (current.channel) {
      if (current.listener) current.channel.removeEventListener("message", current.listener);
      current.channel.close();
    }
    await Promise.allSettled(current.requests);
  }

  return {
    start,
    stop,
    broadcast(message) {
      return session ? post(session, message) : false;
    },
    announce(key, message) {
      const current = session;
      if (state.leader) return Promise.resolve(AnnounceResult.self);
      if (!current || current.stopped || !post(current, message) || state.leaderTabId === null) {
        // Nobody is known to listen: the next leader reads storage when it takes over.
        return Promise.resolve(AnnounceResult.noLeader);
      }
      return new Promise<AnnounceResult>((resolve) => {
        const handle = timers.setTimeout(
          () => settleAnnouncement(key, AnnounceResult.noAck),
          options.announceAckMs ?? DEFAULT_ANNOUNCE_ACK_MS,
        );
        const waiting = awaitingAck.get(key) ?? [];
        waiting.push((result) => {
          timers.clearTimeout(handle);
          resolve(result);
        });
        awaitingAck.set(key, waiting);
      });
    },
    get state() {
      return state;
    },
  };
}
