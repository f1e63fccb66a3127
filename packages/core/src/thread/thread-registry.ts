import { createStore, type StoreApi } from "zustand/vanilla";
import { type AgUiEvent, EventType } from "../protocol";
import { defaultTimers, type Timers } from "../stream/timers";
import { ThreadDraft } from "./thread-draft";
import { emptyThreadState, type ThreadState } from "./thread-state";

/** What the app gets: a store it can read and subscribe to, never write. */
export type ReadonlyStore<T> = Pick<StoreApi<T>, "getState" | "getInitialState" | "subscribe">;

export function readonlyStore<T>(store: StoreApi<T>): ReadonlyStore<T> {
  return { getState: store.getState, getInitialState: store.getInitialState, subscribe: store.subscribe };
}

/** Receives the events this tab applied to a thread, a batch at a time. */
export type OnApply = (threadId: string, events: readonly AgUiEvent[]) => void;

/** How long this tab's events gather before they are reported (other tabs mirror them). */
export const REPORT_INTERVAL_MS = 16;

interface Thread {
  readonly store: StoreApi<ThreadState>;
  draft: ThreadDraft | undefined;
}

/**
 * One zustand store per thread. Events are folded into a draft and published
 * once per task: a stream decodes a network chunk in one go, so subscribers
 * wake once per chunk. Reading a thread publishes what is pending first.
 *
 * This tab's own events (`apply`, not `applyRemote`) are reported to `onApply`
 * at most once per REPORT_INTERVAL_MS, and at once when a run ends: each report
 * is a message to every other tab, and one per chunk costs a fast stream more
 * than its parsing.
 */
export class ThreadRegistry {
  readonly #threads = new Map<string, Thread>();
  readonly #pending = new Set<Thread>();
  readonly #unreported = new Map<string, AgUiEvent[]>();
  readonly #onApply: OnApply | undefined;
  readonly #timers: Timers;
  #scheduled = false;
  #reportTimer: unknown;

  constructor(onApply?: OnApply, timers: Timers = defaultTimers) {
    this.#onApply = onApply;
    this.#timers = timers;
  }

  #thread(threadId: string): Thread {
    let thread = this.#threads.get(threadId);
    if (!thread) {
      thread = { store: createStore<ThreadState>()(() => emptyThreadState(threadId)), draft: undefined };
      this.#threads.set(threadId, thread);
    }
    return thread;
  }

  store(threadId: string): ReadonlyStore<ThreadState> {
    const { store } = this.#thread(threadId);
    const getState = () => {
      this.flush();
      return store.getState();
    };
    return { getState, getInitialState: store.getInitialState, subscribe: store.subscribe };
  }

  get(threadId: string): ThreadState {
    this.flush();
    return this.#thread(threadId).store.getState();
  }

  apply(threadId: string, event: AgUiEvent): void {
    this.applyRemote(threadId, event);
    if (!this.#onApply) return;
    const unreported = this.#unreported.get(threadId);
    if (unreported) unreported.push(event);
    else this.#unreported.set(threadId, [event]);
    if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
      // The end of a run goes out with the state it publishes, not a tick later.
      queueMicrotask(() => this.#report());
    } else {
      this.#reportTimer ??= this.#timers.setTimeout(() => this.#report(), REPORT_INTERVAL_MS);
    }
  }

  applyRemote(threadId: string, event: AgUiEvent): void {
    const thread = this.#thread(threadId);
    thread.draft ??= new ThreadDraft(thread.store.getState());
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
    const pending = [...this.#pending];
    this.#pending.clear();
    // Drafts are detached first: a subscriber that applies an event starts a fresh one.
    for (const thread of pending) {
      const draft = thread.draft;
      thread.draft = undefined;
      if (draft?.changed) thread.store.setState(draft.finish(), true);
    }
  }

  #report(): void {
    if (this.#reportTimer !== undefined) this.#timers.clearTimeout(this.#reportTimer);
    this.#reportTimer = undefined;
    const batches = [...this.#unreported];
    this.#unreported.clear();
    for (const [threadId, events] of batches) this.#onApply?.(threadId, events);
  }

  update(threadId: string, update: (state: ThreadState) => ThreadState): void {
    this.flush();
    const { store } = this.#thread(threadId);
    store.setState(update(store.getState()), true);
  }

  /** Removes an answered interrupt once its verdict is final. */
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
    for (const thread of this.#pending) thread.draft = undefined;
    this.#pending.clear();
    this.#unreported.clear();
    for (const [threadId, { store }] of this.#threads) store.setState(emptyThreadState(threadId), true);
  }
}
