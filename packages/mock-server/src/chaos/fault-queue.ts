import type { Fault, FaultPoint } from "./fault";

/** Pending faults in arrival order; each fires `times` times, then is gone. Not persisted. */
export class FaultQueue {
  #faults: Fault[] = [];

  add(faults: readonly Fault[]): void {
    this.#faults.push(...faults.map((fault) => ({ ...fault })));
  }

  list(): readonly Fault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.#faults = [];
  }

  /** Consumes one firing of the first fault at `point` that matches the thread (and `accept`). */
  take(
    point: FaultPoint,
    threadId: string,
    accept: (fault: Fault) => boolean = () => true,
  ): Fault | undefined {
    const index = this.#faults.findIndex(
      (fault) =>
        fault.point === point &&
        (fault.threadId === undefined || fault.threadId === threadId) &&
        accept(fault),
    );
    if (index < 0) return undefined;
    const fault = this.#faults[index];
    if (fault === undefined) return undefined;
    if (fault.times <= 1) this.#faults.splice(index, 1);
    else this.#faults[index] = { ...fault, times: fault.times - 1 };
    return fault;
  }
}
