import type { IncomingMessage } from "node:http";
import { type AgUiEvent, type Interrupt, OutcomeCode, type RunAgentInput } from "@agui-outbox/core/protocol";
import type { RunAttempt } from "./run-attempt";
import { runError } from "./run-error";

/** What a hydration (a run with no messages: a reloaded page asking for the thread) is given. */
export interface HydrationTurn {
  readonly input: RunAgentInput;
  /** The thread's open interrupts, as the run's `RUN_FINISHED` will carry them. */
  readonly interrupts: readonly Interrupt[];
  /** The caller's identity, as the app's `identify` returned it; undefined without `identify`. Scope your own data by it. */
  readonly identity: string | undefined;
  /** The HTTP request that asked for it; none outside one. */
  readonly request?: IncomingMessage | undefined;
}

/**
 * The events a hydration sends between its `RUN_STARTED` and the
 * `RUN_FINISHED` the library writes (e.g. the thread's `MESSAGES_SNAPSHOT`
 * from the team's own history). It must change nothing: a page may hydrate at
 * any time, as often as it likes. Lifecycle events it yields are dropped.
 */
export type Hydrate = (turn: HydrationTurn) => Iterable<AgUiEvent> | AsyncIterable<AgUiEvent>;

const LIFECYCLE = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"]);

/** Writes a hydration run after its `RUN_STARTED`: the hook's events, then the open interrupts. */
export async function writeHydration(
  attempt: RunAttempt,
  input: RunAgentInput,
  interrupts: readonly Interrupt[],
  hydrate: Hydrate | undefined,
  request: IncomingMessage | undefined,
): Promise<void> {
  const { threadId, runId } = input;
  if (hydrate !== undefined) {
    try {
      for await (const event of hydrate({ input, interrupts, identity: attempt.identity, request })) {
        if (!LIFECYCLE.has(event.type)) await attempt.emit(event);
      }
    } catch {
      // Nothing was claimed or changed: the page may simply hydrate again.
      await attempt.emit(
        runError(OutcomeCode.UNAVAILABLE, "the server could not read this thread; retry later"),
      );
      return;
    }
  }
  const outcome = interrupts.length === 0 ? { type: "success" } : { type: "interrupt", interrupts };
  await attempt.emit({ type: "RUN_FINISHED", threadId, runId, outcome } as AgUiEvent);
}
