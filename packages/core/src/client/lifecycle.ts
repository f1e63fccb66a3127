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

  onDispose(stop: () => void): void {
    if (this.signal.aborted) stop();
    else this.signal.addEventListener("abort", stop, { once: true });
  }

  /** As `step`, but rejects at dispose: a step that never settles cannot hold a start. */
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
