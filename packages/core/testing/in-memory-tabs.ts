import type { ChannelLike, ChannelListener } from "../src/tabs/channel";
import type { LockLike, LockManagerLike, LockRequestOptionsLike } from "../src/tabs/lock-manager";

/*
 * In-process stand-ins for Web Locks and BroadcastChannel: several "tabs" in
 * one test (or in one Node process) share one `InMemoryLockManager` and one
 * `InMemoryBroadcastHub`. They keep the semantics the tab coordinator relies
 * on, and nothing else (no shared locks, no `steal`, no `query`).
 */

interface Waiter {
  readonly lock: LockLike;
  readonly callback: (lock: LockLike | null) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The lock request was aborted.", "AbortError");
}

/**
 * Exclusive locks with a FIFO queue per name. A lock is held until the promise
 * returned by its callback settles; the next waiter is granted synchronously in
 * that same step, before the released request's own promise settles, so a test
 * that awaits `stop()` of the holder sees the next holder already in place.
 * Aborting a queued request removes it and rejects with the signal's reason.
 */
export class InMemoryLockManager implements LockManagerLike {
  readonly #held = new Set<string>();
  readonly #queues = new Map<string, Waiter[]>();

  request<T>(
    name: string,
    options: LockRequestOptionsLike,
    callback: (lock: LockLike | null) => T,
  ): Promise<Awaited<T>> {
    return new Promise<Awaited<T>>((resolve, reject) => {
      const mode = options.mode ?? "exclusive";
      if (mode !== "exclusive") {
        reject(new DOMException("Only exclusive locks are modelled.", "NotSupportedError"));
        return;
      }
      // [spec] signal and ifAvailable together are a NotSupportedError.
      if (options.signal && options.ifAvailable) {
        reject(new DOMException("signal and ifAvailable cannot be combined.", "NotSupportedError"));
        return;
      }
      const signal = options.signal;
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const queue = this.#queues.get(name) ?? [];
      const free = !this.#held.has(name) && queue.length === 0;
      if (!free && options.ifAvailable) {
        this.#settle(
          Promise.resolve().then(() => callback(null)),
          resolve,
          reject,
        );
        return;
      }
      const waiter: Waiter = {
        lock: { name, mode: "exclusive" },
        callback,
        resolve: resolve as (value: unknown) => void,
        reject,
        signal,
        onAbort: () => {
          const waiting = this.#queues.get(name) ?? [];
          const index = waiting.indexOf(waiter);
          if (index === -1) return;
          waiting.splice(index, 1);
          if (signal) reject(abortReason(signal));
        },
      };
      if (free) {
        this.#grant(waiter);
        return;
      }
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      queue.push(waiter);
      this.#queues.set(name, queue);
    });
  }

  /** Whether someone holds the lock `name` (for assertions). */
  isHeld(name: string): boolean {
    return this.#held.has(name);
  }

  /** How many requests wait for `name` (for assertions). */
  pending(name: string): number {
    return this.#queues.get(name)?.length ?? 0;
  }

  #grant(waiter: Waiter): void {
    const name = waiter.lock.name;
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    this.#held.add(name);
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(waiter.callback(waiter.lock));
    } catch (error) {
      result = Promise.reject(error);
    }
    const release = () => {
      this.#held.delete(name);
      const next = this.#queues.get(name)?.shift();
      if (next) this.#grant(next);
    };
    result.then(
      (value) => {
        release();
        waiter.resolve(value);
      },
      (error: unknown) => {
        release();
        waiter.reject(error);
      },
    );
  }

  #settle<T>(
    result: Promise<T>,
    resolve: (value: Awaited<T>) => void,
    reject: (reason: unknown) => void,
  ): void {
    result.then((value) => resolve(value as Awaited<T>), reject);
  }
}

/** How a hub defers delivery; `queueMicrotask` unless a test wants to step it. */
export type Schedule = (task: () => void) => void;

export interface InMemoryBroadcastHubOptions {
  /**
   * Defers each delivery, as the platform does (a message is never delivered
   * during `postMessage`).
   * @default queueMicrotask
   */
  readonly schedule?: Schedule;
  /**
   * Copies each message, as the platform's structured clone does: receivers
   * never share objects with the sender, and uncloneable values throw in
   * `postMessage`.
   * @default structuredClone
   */
  readonly clone?: (value: unknown) => unknown;
}

/**
 * BroadcastChannel for one process: a message posted on a channel reaches every
 * other open channel of the same name, asynchronously and as a clone, never the
 * channel that posted it. Posting on a closed channel throws, as it does in
 * browsers; a channel closed before delivery receives nothing.
 */
export class InMemoryBroadcastHub {
  readonly #channels = new Map<string, Set<InMemoryChannel>>();
  readonly #schedule: Schedule;
  readonly #clone: (value: unknown) => unknown;

  constructor(options: InMemoryBroadcastHubOptions = {}) {
    this.#schedule = options.schedule ?? ((task) => queueMicrotask(task));
    this.#clone = options.clone ?? ((value) => structuredClone(value));
  }

  /** A `ChannelFactory`: pass `hub.openChannel` where a channel factory is expected. */
  readonly openChannel = (name: string): ChannelLike => {
    const channel = new InMemoryChannel(name, this);
    let open = this.#channels.get(name);
    if (!open) {
      open = new Set();
      this.#channels.set(name, open);
    }
    open.add(channel);
    return channel;
  };

  /** How many channels of this name are open (for assertions). */
  openCount(name: string): number {
    return this.#channels.get(name)?.size ?? 0;
  }

  /** @internal */
  post(from: InMemoryChannel, message: unknown): void {
    const receivers = [...(this.#channels.get(from.name) ?? [])].filter((channel) => channel !== from);
    for (const receiver of receivers) {
      const copy = this.#clone(message);
      this.#schedule(() => receiver.deliver(copy));
    }
  }

  /** @internal */
  remove(channel: InMemoryChannel): void {
    this.#channels.get(channel.name)?.delete(channel);
  }
}

class InMemoryChannel implements ChannelLike {
  readonly name: string;
  readonly #hub: InMemoryBroadcastHub;
  readonly #listeners = new Set<ChannelListener>();
  #closed = false;

  constructor(name: string, hub: InMemoryBroadcastHub) {
    this.name = name;
    this.#hub = hub;
  }

  postMessage(message: unknown): void {
    if (this.#closed) throw new DOMException("The channel is closed.", "InvalidStateError");
    this.#hub.post(this, message);
  }

  addEventListener(_type: "message", listener: ChannelListener): void {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: "message", listener: ChannelListener): void {
    this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#hub.remove(this);
  }

  deliver(data: unknown): void {
    if (this.#closed) return;
    for (const listener of [...this.#listeners]) listener({ data });
  }
}
