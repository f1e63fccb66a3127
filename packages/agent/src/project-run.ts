import type { BaseEvent } from "@ag-ui/client";
import {
  isOutboxError,
  type PendingInterrupt,
  type ReadonlyStore,
  type ThreadState,
} from "@agui-outbox/core";
import { Observable } from "rxjs";

/** How a projected run ends. */
export type RunEnd =
  | { readonly type: "finished"; readonly interrupts: readonly PendingInterrupt[] }
  | { readonly type: "error"; readonly message: string; readonly code: string };

export interface RunBody {
  /** Adds a `CUSTOM` event to the run (progress and verdicts). */
  custom(name: string, value: unknown): void;
}

export interface ProjectRunOptions {
  readonly threadId: string;
  readonly runId: string;
  readonly thread: ReadonlyStore<ThreadState>;
  /** The work of the run; its result is the run's last event. A rejection ends it in `RUN_ERROR`. */
  readonly body: (run: RunBody) => Promise<RunEnd>;
}

/**
 * One AG-UI run as the agent's subscribers see it, projected from the thread
 * store rather than relayed frame by frame:
 *
 *   RUN_STARTED ─▶ MESSAGES_SNAPSHOT (each time the thread's messages change, at most
 *   one per task) ─▶ CUSTOM progress / verdicts ─▶ MESSAGES_SNAPSHOT (final) ─▶
 *   RUN_FINISHED | RUN_ERROR
 *
 * The thread store is built from frames the core has already deduplicated by
 * sequence number, across re-attaches, replays, retries and hydration; a
 * snapshot of it cannot show a message twice, and the sequence is well formed
 * by construction whatever happened on the wire.
 *
 * Unsubscribing (CopilotKit's `detachActiveRun`, a thread switch) only stops
 * the projection: an answer already stored keeps being delivered, and the next
 * `connectAgent` shows its result.
 */
export function projectRun(options: ProjectRunOptions): Observable<BaseEvent> {
  const { threadId, runId, thread } = options;
  return new Observable<BaseEvent>((subscriber) => {
    let closed = false;
    let shown: ThreadState["messages"] | undefined;
    let scheduled = false;
    const emit = (event: BaseEvent) => {
      if (!closed) subscriber.next(event);
    };
    const snapshot = () => {
      const { messages } = thread.getState();
      if (messages === shown) return;
      shown = messages;
      emit({ type: "MESSAGES_SNAPSHOT", messages: structuredClone(messages) } as BaseEvent);
    };
    emit({ type: "RUN_STARTED", threadId, runId } as BaseEvent);
    // A burst of stream deltas becomes one snapshot.
    const unsubscribe = thread.subscribe(() => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        snapshot();
      });
    });
    const finish = (end: RunEnd) => {
      unsubscribe();
      snapshot();
      emit(terminalEvent(threadId, runId, end));
      closed = true;
      subscriber.complete();
    };
    options
      .body({ custom: (name, value) => emit({ type: "CUSTOM", name, value } as BaseEvent) })
      .then(finish, (error: unknown) => finish(errorEnd(error)));
    return () => {
      closed = true;
      unsubscribe();
    };
  });
}

function terminalEvent(threadId: string, runId: string, end: RunEnd): BaseEvent {
  if (end.type === "error") return { type: "RUN_ERROR", message: end.message, code: end.code } as BaseEvent;
  const interrupts = end.interrupts.map(({ threadId: _thread, ...interrupt }) => interrupt);
  const outcome = interrupts.length > 0 ? { type: "interrupt", interrupts } : { type: "success" };
  return { type: "RUN_FINISHED", threadId, runId, outcome } as BaseEvent;
}

export function errorEnd(error: unknown): RunEnd {
  if (isOutboxError(error)) {
    return { type: "error", message: error.message, code: error.code ?? error.kind };
  }
  return {
    type: "error",
    message: error instanceof Error ? error.message : String(error),
    code: "AGUI_OUTBOX_UNEXPECTED",
  };
}
