import type { ServerClock } from "../../src/index";

/**
 * A clock that ticks only when told: `advance(ms)` runs every tick due within
 * `ms`, in time order. For tests of lease renewal and sweeping.
 */
export class ManualClock implements ServerClock {
  #now = 0;
  readonly #timers = new Set<{ ms: number; next: number; tick: () => void }>();

  every(ms: number, tick: () => void): () => void {
    const timer = { ms, next: this.#now + ms, tick };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** Moves this clock on by `ms`, running each tick as its time comes. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      let due: { ms: number; next: number; tick: () => void } | undefined;
      for (const timer of this.#timers) {
        if (timer.next <= until && (due === undefined || timer.next < due.next)) due = timer;
      }
      if (due === undefined) break;
      this.#now = due.next;
      due.next += due.ms;
      due.tick();
    }
    this.#now = until;
  }

  /** How many schedules are running (a stopped run's renewal is gone). */
  get scheduled(): number {
    return this.#timers.size;
  }
}
