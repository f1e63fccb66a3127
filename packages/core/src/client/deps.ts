import { defaultTimers, type Timers } from "../stream/timers";
import { type ChannelFactory, defaultOpenChannel } from "../tabs/channel";
import { defaultLocks, type LockManagerSource } from "../tabs/lock-manager";
import type { FetchLike } from "../transport/fetch-like";

export type { FetchLike, Timers };

/** A source of a boolean that changes over time (online, visible). */
export interface Signal {
  get(): boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (value: boolean) => void): () => void;
}

/**
 * Every side effect, injected through one object. Defaults look the global up at call time,
 * never at import: SSR touches no browser API, and a test can swap a global after import.
 */
export interface OutboxDeps {
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly timers: Timers;
  readonly randomUUID: () => string;
  /** Uniform in [0, 1): drives backoff jitter. */
  readonly random: () => number;
  /** `navigator.onLine` and its events: a hint that makes retries sooner, never a gate. */
  readonly online: Signal;
  /** Visibility and focus: streams run while hidden; a return retries sooner and rereads questions. */
  readonly visible: Signal;
  /** IndexedDB factory, or undefined where there is none (SSR, some private modes). */
  readonly indexedDB: () => IDBFactory | undefined;
  /** `navigator.storage`, for `persist()`. */
  readonly storageManager: () => StorageManager | undefined;
  /** Web Locks (`navigator.locks`): one sending tab per origin and namespace. */
  readonly locks: LockManagerSource;
  /** BroadcastChannel: how the other tabs mirror the sending one. */
  readonly openChannel: ChannelFactory;
}

function windowSignal(
  read: () => boolean,
  onEvent: string,
  offEvent: string,
  target: () => EventTarget | undefined,
): Signal {
  return {
    get: read,
    subscribe(listener) {
      const eventTarget = target();
      if (!eventTarget) return () => {};
      const on = () => listener(read());
      eventTarget.addEventListener(onEvent, on);
      if (offEvent !== onEvent) eventTarget.addEventListener(offEvent, on);
      return () => {
        eventTarget.removeEventListener(onEvent, on);
        if (offEvent !== onEvent) eventTarget.removeEventListener(offEvent, on);
      };
    },
  };
}

export function defaultDeps(): OutboxDeps {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    now: () => Date.now(),
    timers: defaultTimers,
    randomUUID: () => globalThis.crypto.randomUUID(),
    random: () => Math.random(),
    online: windowSignal(
      () => (typeof navigator === "undefined" ? true : navigator.onLine !== false),
      "online",
      "offline",
      () => (typeof window === "undefined" ? undefined : window),
    ),
    // `visibilitychange` bubbles from the document to the window, where focus arrives too.
    visible: windowSignal(
      () => (typeof document === "undefined" ? true : document.visibilityState !== "hidden"),
      "visibilitychange",
      "focus",
      () => (typeof window === "undefined" ? undefined : window),
    ),
    indexedDB: () => (typeof indexedDB === "undefined" ? undefined : indexedDB),
    storageManager: () => (typeof navigator === "undefined" ? undefined : navigator.storage),
    locks: defaultLocks,
    openChannel: defaultOpenChannel,
  };
}
