import type { MockState } from "../state/mock-state";

/**
 * Persistence of the server's state. The server mutates one in-memory
 * {@link MockState} and calls `save` after every mutation, synchronously, so a
 * crash can only ever lose the step it interrupted.
 */
export interface MockStore {
  /** The state saved last, or undefined on a fresh store. */
  load(): MockState | undefined;
  save(state: MockState): void;
}
