import type { Interrupt, Message } from "../protocol";

/** A union tagged on `name`, so a component reads only the data its state has. */
export type RunState =
  | { readonly name: "idle" }
  | { readonly name: "running" | "interrupted" | "finished"; readonly runId: string }
  | {
      readonly name: "failed";
      readonly runId: string | null;
      readonly code: string | null;
      readonly message: string;
    };

/** An interrupt waiting for an answer, with its thread. */
export interface PendingInterrupt extends Interrupt {
  readonly threadId: string;
}

export interface ThreadState {
  readonly threadId: string;
  readonly messages: readonly Message[];
  readonly run: RunState;
  readonly pendingInterrupts: readonly PendingInterrupt[];
  /** Hydrated, or a run's events received. */
  readonly loaded: boolean;
}

export function emptyThreadState(threadId: string): ThreadState {
  return { threadId, messages: [], run: { name: "idle" }, pendingInterrupts: [], loaded: false };
}
