/*
 * The client's life, one step at a time:
 *
 *   idle ──start──▶ opening ──loaded──▶ ready
 *     ▲               │                   │
 *     └────failed─────┘                   │
 *   any ──────────────dispose─────────────┴──▶ disposed (final)
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

  dispatch(action: LifecycleAction): LifecycleState {
    this.#state = reduceLifecycle(this.#state, action);
    if (this.#state.name === "ready" || this.#state.name === "disposed") this.#markReady();
    return this.#state;
  }

  /** Resolves once the client is ready or disposed (check `isDisposed`); never rejects. */
  whenReady(): Promise<void> {
    return this.#ready;
  }
}
