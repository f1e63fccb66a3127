/** The part of the Web Locks API the tab coordinator uses; `navigator.locks` satisfies it. */
export interface LockLike {
  readonly name: string;
  readonly mode: "exclusive" | "shared";
}

export interface LockRequestOptionsLike {
  readonly mode?: "exclusive" | "shared";
  /** Grant now or call back with `null`; never queue. Not with `signal`. */
  readonly ifAvailable?: boolean;
  /** Aborting while queued rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface LockManagerLike {
  /** Holds the lock until the callback's promise settles; resolves with its result after release. */
  request<T>(
    name: string,
    options: LockRequestOptionsLike,
    callback: (lock: LockLike | null) => T,
  ): Promise<Awaited<T>>;
}

/** `undefined`: the platform has none. */
export type LockManagerSource = () => LockManagerLike | undefined;

/** `navigator.locks` at call time: absent in SSR, Node, old browsers and on insecure origins. */
export const defaultLocks: LockManagerSource = () =>
  typeof navigator === "undefined" ? undefined : ((navigator as { locks?: LockManager }).locks ?? undefined);
