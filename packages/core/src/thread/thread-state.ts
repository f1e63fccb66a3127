import type { Interrupt, Message } from "../protocol";

/**
 * What a thread looks like to the app. Run state is a union tagged on `name`
 * so a component can switch on it and read only the data that state has.
 */
export type RunState =
  | { readonly name: "idle" }
  | { readonly name: "running"; readonly runId: string }
  | { readonly name: "interrupted"; readonly runId: string }
  | { readonly name: "finished"; readonly runId: string }
  | {
      readonly name: "failed";
      readonly runId: string | null;
      readonly code: string | null;
      readonly message: string;
    };

/** An interrupt waiting for an answer, with the thread it belongs to. */
export interface PendingInterrupt extends Interrupt {
  readonly threadId: string;
}

export interface ThreadState {
  readonly threadId: string;
  readonly messages: readonly Message[];
  readonly run: RunState;
  readonly pendingInterrupts: readonly PendingInterrupt[];
  /** True once the thread was hydrated from the server or received a run's events. */
  readonly loaded: boolean;
}

export function emptyThreadState(threadId: string): ThreadState {
  return { threadId, messages: [], run: { name: "idle" }, pendingInterrupts: [], loaded: false };
}
