import type { DeliveryEngine } from "../delivery/delivery-engine";
import { EntryState, type OutboxEntry } from "../outbox/entry";
import type { ThreadRegistry } from "../thread/thread-registry";
import type { ThreadRunner } from "../thread/thread-runner";
import { type ErrorSink, ErrorSource } from "./error-sink";

export interface OpenThreads {
  readonly threads: ThreadRegistry;
  readonly entries: readonly OutboxEntry[];
  readonly runner: Pick<ThreadRunner, "hydrate">;
  /** The sending tab's engine; absent in a tab that does not send. */
  readonly engine: Pick<DeliveryEngine, "settleClosed"> | undefined;
  readonly sink: ErrorSink;
}

/**
 * Back in view or online: each thread with a question open here (or an answer
 * held for the others of its run) is read again, so an answer given on another
 * device shows without the person acting, and a held answer it made moot settles.
 */
export function readOpenThreads({ threads, entries, runner, engine, sink }: OpenThreads): void {
  const threadsOf = (states: readonly string[]) =>
    new Set(entries.filter((entry) => states.includes(entry.state)).map((entry) => entry.threadId));
  const held = threadsOf([EntryState.held]);
  // A thread whose answer is on the wire is read by its delivery.
  const sending = threadsOf([EntryState.sending, EntryState.streaming]);
  for (const threadId of threads.threadIds()) {
    if (sending.has(threadId)) continue;
    if (!held.has(threadId) && threads.get(threadId).pendingInterrupts.length === 0) continue;
    const settled = runner.hydrate(threadId).then(() => engine?.settleClosed(threadId));
    sink.track(settled, ErrorSource.thread);
  }
}
