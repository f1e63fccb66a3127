import { ErrorKind, OutboxError } from "../errors/outbox-error";

/*
 * The client's life, one step at a time:
 *
 *   idle ──start──▶ opening ──loaded──▶ ready
 *     ▲               │                   │
 *     └────failed─────┘                   │
 *   any ──────────────dispose─────────────┴──▶ disposed (final)
 *
 * Dispose aborts the one lifetime signal: whatever was tied to it ends there.
 */

export type LifecycleState =
  | { readonly name: "idle" }
  /** Storage is opening and the entries are being read. */
  | { readonly name: "opening" }
  /** Entries are loaded: tab messages apply and the leader may send. */
  | { readonly name: "ready" }
  | { readonly name: "disposed" };

export type LifecycleAction =
  | { readonly type: "start" }
  | { readonly type: "loaded" }
  | { readonly type: "failed" }
  | { readonly type: "dispose" };

/** Pure; an action that does not apply returns the same state. */
export function reduceLifecycle(state: LifecycleState, action: LifecycleAction): LifecycleState {
  if (state.name === "disposed") return state;
  switch (action.type) {
    case "start":
      return state.name === "idle" ? { name: "opening" } : state;
    case "loaded":
      return state.name === "opening" ? { name: "ready" } : state;
    case "failed":
      return state.name === "opening" ? { name: "idle" } : state;
    case "dispose":
      return { name: "disposed" };
  }
}

/** Holds the lifecycle state and lets code wait for `ready`. */
export class Lifecycle {
  #state: LifecycleState = { name: "idle" };
  readonly #lifetime = new AbortController();
  #ready: Promise<void>;
  #markReady: () => void = () => {};

  constructor() {
    this.#ready = new Promise<void>((resolve) => {
      this.#markReady = resolve;
    });
  }

  get state(): LifecycleState {
    return this.#state;
  }

  get isReady(): boolean {
    return this.#state.name === "ready";
  }

  get isDisposed(): boolean {
    return this.#state.name === "disposed";
  }

  /** Aborted on dispose, with the `disposed` error as its reason. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  dispatch(action: LifecycleAction): LifecycleState {
    this.#state = reduceLifecycle(this.#state, action);
    if (this.#state.name === "ready" || this.#state.name === "disposed") this.#markReady();
    if (this.#state.name === "disposed" && !this.signal.aborted) {
      this.#lifetime.abort(new OutboxError(ErrorKind.disposed, "The client was disposed."));
    }
    return this.#state;
  }

  /** Calls `stop` on dispose, or now when already disposed. */
  onDispose(stop: () => void): void {
    if (this.signal.aborted) stop();
    else this.signal.addEventListener("abort", stop, { once: true });
  }

  /**
   * Settles as `step` does, but rejects with the `disposed` error the moment
   * the client is disposed: a step that never settles cannot hold a start.
   */
  async until<T>(step: Promise<T>): Promise<T> {
    const signal = this.signal;
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      this.onDispose(onAbort);
    });
    try {
      const value = await Promise.race([step, aborted]);
      signal.throwIfAborted();
      return value;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Resolves once the client is ready or disposed (check `isDisposed`); never rejects. */
  whenReady(): Promise<void> {
    return this.#ready;
  }
}
