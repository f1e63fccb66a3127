import type { AgUiEvent, RunAgentInput } from "@agui-outbox/core/protocol";
import type { AgentHandler } from "./agent";

/**
 * What the library needs of an `@ag-ui/client` `AbstractAgent`: its `run`,
 * which returns an Observable of events. Typed structurally, so the library
 * does not depend on `@ag-ui/client` or RxJS.
 */
export interface RunnableAgent {
  run(input: RunAgentInput): {
    subscribe(observer: {
      next: (event: unknown) => void;
      error: (error: unknown) => void;
      complete: () => void;
    }): { unsubscribe(): void };
  };
}

/**
 * Wraps an AG-UI `AbstractAgent` (anything with `run(input): Observable`) as
 * an {@link AgentHandler}. Events are buffered between the Observable's pushes
 * and the engine's pulls; the subscription ends when the run's signal aborts.
 */
export function fromAbstractAgent(agent: RunnableAgent): AgentHandler {
  return ({ input, signal }) => ({
    [Symbol.asyncIterator](): AsyncIterator<AgUiEvent> {
      const queue: AgUiEvent[] = [];
      let failure: { error: unknown } | undefined;
      let complete = false;
      let wake: (() => void) | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      const subscription = agent.run(input).subscribe({
        next: (event) => {
          queue.push(event as AgUiEvent);
          notify();
        },
        error: (error) => {
          failure = { error };
          notify();
        },
        complete: () => {
          complete = true;
          notify();
        },
      });
      const stop = () => {
        subscription.unsubscribe();
        complete = true;
        notify();
      };
      signal.addEventListener("abort", stop, { once: true });
      return {
        async next(): Promise<IteratorResult<AgUiEvent>> {
          for (;;) {
            const event = queue.shift();
            if (event !== undefined) return { value: event, done: false };
            if (failure !== undefined) throw failure.error;
            if (complete) return { value: undefined, done: true };
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        async return(): Promise<IteratorResult<AgUiEvent>> {
          stop();
          return { value: undefined, done: true };
        },
      };
    },
  });
}
