import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgUiEvent } from "../protocol";
import { MessageIndex } from "./message-index";
import { ThreadDraft } from "./thread-draft";
import { emptyThreadState, type ThreadState } from "./thread-state";

/** What the app gets: a store it can read and subscribe to, never write. */
export type ReadonlyStore<T> = Pick<StoreApi<T>, "getState" | "getInitialState" | "subscribe">;

export function readonlyStore<T>(store: StoreApi<T>): ReadonlyStore<T> {
  return { getState: store.getState, getInitialState: store.getInitialState, subscribe: store.subscribe };
}

interface Thread {
  readonly threadId: string;
  readonly store: StoreApi<ThreadState>;
  /** Message positions, carried from one draft to the next. */
  readonly index: MessageIndex;
  /** Events applied and not yet published. */
  draft: ThreadDraft | undefined;
  /** This tab's own events in the draft, reported with it. */
  readonly own: AgUiEvent[];
}

/** Receives the events this tab applied to a thread, once per publish. */
export type OnApply = (threadId: string, events: readonly AgUiEvent[]) => void;

/**
 * One zustand store per thread, created on first use. Events this tab applies
 * are reported to `onApply` when they are published, a task's worth at once
 * (other tabs mirror them); events mirrored from another tab come in through
 * `applyRemote` and are not reported again.
 *
 * Events are folded into a draft and published once per task: a stream decodes
 * a network chunk in one go, so each chunk wakes subscribers once however many
 * events it carried. Reading a thread (`get`, its store's `getState`) publishes
 * what is pending first, so no reader ever sees a state older than the events
 * already applied.
 */
export class ThreadRegistry {
  readonly #threads = new Map<string, Thread>();
  readonly #pending = new Set<Thread>();
  readonly #onApply: OnApply | undefined;
  #scheduled = false;

  constructor(onApply?: OnApply) {
    this.#onApply = onApply;
  }

  #thread(threadId: string): Thread {
    let thread = this.#threads.get(threadId);
    if (!thread) {
      thread = {
        threadId,
        store: createStore<ThreadState>()(() => emptyThreadState(threadId)),
        index: new MessageIndex(),
        draft: undefined,
        own: [],
      };
      this.#threads.set(threadId, thread);
    }
    return thread;
  }

  store(threadId: string): ReadonlyStore<ThreadState> {
    const { store } = this.#thread(threadId);
    return {
      getState: () => {
        this.flush();
        return store.getState();
      },
      getInitialState: store.getInitialState,
      subscribe: store.subscribe,
    };
  }

  get(threadId: string): ThreadState {
    this.flush();
    return this.#thread(threadId).store.getState();
  }

  apply(threadId: string, event: AgUiEvent): void {
    this.applyRemote(threadId, event);
    if (this.#onApply) this.#thread(threadId).own.push(event);
  }

  applyRemote(threadId: string, event: AgUiEvent): void {
    const thread = this.#thread(threadId);
    thread.draft ??= new ThreadDraft(thread.store.getState(), thread.index);
    thread.draft.apply(event);
    this.#pending.add(thread);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Publishes every pending draft now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.size === 0) return;
    const pending = [...this.#pending];
    this.#pending.clear();
    // Drafts are detached before any subscriber runs: one that applies an event
    // starts a fresh draft from the state it was just given.
    for (const thread of pending) {
      const draft = thread.draft;
      const own = thread.own.splice(0);
      thread.draft = undefined;
      if (draft?.changed) thread.store.setState(draft.finish(), true);
      if (own.length > 0) this.#onApply?.(thread.threadId, own);
    }
  }

  update(threadId: string, update: (state: ThreadState) => ThreadState): void {
    this.flush();
    const { store } = this.#thread(threadId);
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
    return [...this.#threads.keys()];
  }

  clear(): void {
    for (const thread of this.#pending) {
      thread.draft = undefined;
      thread.own.length = 0;
    }
    this.#pending.clear();
    for (const [threadId, { store }] of this.#threads) store.setState(emptyThreadState(threadId), true);
  }
}
