import type { Timers } from "../stream/timers";
import type { ChannelFactory, ChannelLike } from "./channel";
import type { LockManagerSource } from "./lock-manager";
import type { TabMessage } from "./tab-message";

export const TAB_NAME_PREFIX = "agui-outbox:";

export const UnsupportedReason = {
  noWebLocks: "no-web-locks",
  noBroadcastChannel: "no-broadcast-channel",
  lockRequestFailed: "lock-request-failed",
} as const;
export type UnsupportedReason = (typeof UnsupportedReason)[keyof typeof UnsupportedReason];

/** Why a message was ignored; never the message itself (it may hold answers). */
export const DropReason = {
  malformed: "malformed",
  /** A thread event waited for the AG-UI event schemas, which did not load. */
  unreadable: "unreadable",
  otherNamespace: "other-namespace",
  ownMessage: "own-message",
} as const;
export type DropReason = (typeof DropReason)[keyof typeof DropReason];

export const AnnounceResult = {
  acknowledged: "acknowledged",
  self: "self",
  noLeader: "no-leader",
  noAck: "no-ack",
} as const;
export type AnnounceResult = (typeof AnnounceResult)[keyof typeof AnnounceResult];

export const DEFAULT_ANNOUNCE_ACK_MS = 1_000;
export const DEFAULT_RESCAN_INTERVAL_MS = 30_000;

export interface TabState {
  readonly tabId: string;
  readonly started: boolean;
  readonly leader: boolean;
  /** Web Locks and BroadcastChannel are both usable; false means "always leader". */
  readonly supported: boolean;
  readonly unsupportedReason: UnsupportedReason | null;
  readonly leaderTabId: string | null;
  /** Other tabs heard from since `start()` that have not said `bye`. */
  readonly others: number;
}

export interface TabCoordinatorOptions {
  readonly namespace: string;
  /** @default defaultLocks (`navigator.locks` at call time) */
  readonly locks?: LockManagerSource;
  /** @default defaultOpenChannel (`new BroadcastChannel(name)` at call time) */
  readonly openChannel?: ChannelFactory;
  /** @default `agui-outbox:<namespace>` */
  readonly lockName?: string;
  /** @default `agui-outbox:<namespace>` */
  readonly channelName?: string;
  /** @default () => crypto.randomUUID() */
  readonly createTabId?: () => string;
  /** `false` comes before the lock is released: a new leader never overlaps this one. */
  readonly onLeadershipChange: (isLeader: boolean) => void;
  readonly onMessage: (message: TabMessage, from: string) => void;
  /** The leader should read storage again. @default no-op */
  readonly onRescan?: () => void;
  /** @default DEFAULT_RESCAN_INTERVAL_MS */
  readonly rescanIntervalMs?: number;
  /** @default DEFAULT_ANNOUNCE_ACK_MS */
  readonly announceAckMs?: number;
  /** @default globalThis timers */
  readonly timers?: Timers;
  /** @default no-op */
  readonly onDropped?: (reason: DropReason) => void;
  /** A callback above threw. @default rethrows in a microtask */
  readonly onError?: (error: unknown) => void;
}

export interface TabCoordinator {
  /** Resolves once this tab knows its first role. Idempotent while started. */
  start(): Promise<void>;
  /** A leader reports `false`, then releases the lock. */
  stop(): Promise<void>;
  /** False when nothing was sent (not started, no channel, uncloneable). */
  broadcast(message: TabMessage): boolean;
  /** Resolves once the leader acknowledged, at once when none is known, or after `announceAckMs`. */
  announce(key: string, message: TabMessage): Promise<AnnounceResult>;
  readonly state: TabState;
}

/** One start() to stop(). */
export interface TabSession {
  stopped: boolean;
  readonly abort: AbortController;
  readonly release: () => void;
  readonly released: Promise<void>;
  readonly requests: Promise<unknown>[];
  channel: ChannelLike | undefined;
  starting: Promise<void>;
  tick: unknown;
  readonly others: Set<string>;
}
