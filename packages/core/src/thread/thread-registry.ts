import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgUiEvent } from "../protocol";
import { applyEvent } from "./apply-event";
import { emptyThreadState, type ThreadState } from "./thread-state";

/** What the app gets: a store it can read and subscribe to, never write. */
export type ReadonlyStore<T> = Pick<StoreApi<T>, "getState" | "getInitialState" | "subscribe">;

export function readonlyStore<T>(store: StoreApi<T>): ReadonlyStore<T> {
  return { getState: store.getState, getInitialState: store.getInitialState, subscribe: store.subscribe };
}

/**
 * One zustand store per thread, created on first use. Events this tab applies
 * are reported to `onApply` (other tabs mirror them); events mirrored from
 * another tab come in through `applyRemote` and are not reported again.
 */
export class ThreadRegistry {
  readonly #stores = new Map<string, StoreApi<ThreadState>>();
  readonly #onApply: ((threadId: string, event: AgUiEvent) => void) | undefined;

  constructor(onApply?: (threadId: string, event: AgUiEvent) => void) {
    this.#onApply = onApply;
  }

  #store(threadId: string): StoreApi<ThreadState> {
    let store = this.#stores.get(threadId);
    if (!store) {
      store = createStore<ThreadState>()(() => emptyThreadState(threadId));
      this.#stores.set(threadId, store);
    }
    return store;
  }

  store(threadId: string): ReadonlyStore<ThreadState> {
    return readonlyStore(this.#store(threadId));
  }

  get(threadId: string): ThreadState {
    return this.#store(threadId).getState();
  }

  apply(threadId: string, event: AgUiEvent): void {
    this.applyRemote(threadId, event);
    this.#onApply?.(threadId, event);
  }

  applyRemote(threadId: string, event: AgUiEvent): void {
    const store = this.#store(threadId);
    store.setState(applyEvent(store.getState(), event), true);
  }

  update(threadId: string, update: (state: ThreadState) => ThreadState): void {
    const store = this.#store(threadId);
    store.setState(update(store.getState()), true);
  }

  /** Removes an answered interrupt from the thread once its verdict is final. */
  dropInterrupt(threadId: string, interruptId: string): void {
    this.update(threadId, (state) => ({
      ...state,
      pendingInterrupts: state.pendingInterrupts.filter((interrupt) => interrupt.id !== interruptId),
    }));
  }

  threadIds(): string[] {
    return [...this.#stores.keys()];
  }

  clear(): void {
    for (const [threadId, store] of this.#stores) store.setState(emptyThreadState(threadId), true);
  }
}
