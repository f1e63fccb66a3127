import type { MockState } from "../state/mock-state";
import type { MockStore } from "./mock-store";

/** Keeps nothing beyond the process: a crash loses every claim and log. */
export class MemoryStore implements MockStore {
  load(): MockState | undefined {
    return undefined;
  }

  save(_state: MockState): void {}
}
