/**
 * The part of the Web Locks API the tab coordinator uses. `navigator.locks`
 * satisfies it as is; tests use `InMemoryLockManager`.
 */
export interface LockLike {
  readonly name: string;
  readonly mode: "exclusive" | "shared";
}

export interface LockRequestOptionsLike {
  readonly mode?: "exclusive" | "shared";
  /** Grant now or call back with `null`; never queue. Cannot be combined with `signal`. */
  readonly ifAvailable?: boolean;
  /** Aborting while queued rejects the request with the signal's reason; once granted it has no effect. */
  readonly signal?: AbortSignal;
}

export interface LockManagerLike {
  /**
   * Calls `callback` once the lock is granted (or with `null` under
   * `ifAvailable` when it is not free) and holds the lock until the promise the
   * callback returns settles. Resolves with the callback's result after release.
   */
  request<T>(
    name: string,
    options: LockRequestOptionsLike,
    callback: (lock: LockLike | null) => T,
  ): Promise<Awaited<T>>;
}

/** Where the lock manager comes from; `undefined` means the platform has none. */
export type LockManagerSource = () => LockManagerLike | undefined;

/**
 * `navigator.locks`, looked up at call time. Undefined during SSR, in Node
 * without a polyfill, in browsers that predate Web Locks, and on insecure
 * (plain http, non-localhost) origins, where the API is not exposed.
 */
export const defaultLocks: LockManagerSource = () => {
  if (typeof navigator === "undefined") return undefined;
  const locks: LockManager | undefined = (navigator as { locks?: LockManager }).locks;
  return locks ?? undefined;
};
