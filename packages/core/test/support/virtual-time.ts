import type { Timers } from "../../src/client/deps";

export interface VirtualTimeOptions {
  /** @default 1_700_000_000_000 */
  readonly start?: number;
  /**
   * Timers longer than this run on real time and do not move the virtual clock
   * (stream watchdogs): only the loop's own waits are compressed.
   * @default 10_000
   */
  readonly realAboveMs?: number;
}

/**
 * A clock and timers for tests that talk to a real server: a due timer fires
 * on the next macrotask and moves the clock to its due time, so waits of
 * seconds take no real time while every `now()` the code reads stays exact.
 * `hold()` queues timers instead, so a test can act between two polls.
 */
export class VirtualTime {
  #now: number;
  #held = false;
  #nextId = 1;
  readonly #realAboveMs: number;
  readonly #queue = new Map<number, { readonly at: number; readonly callback: () => void }>();
  readonly #real = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(options: VirtualTimeOptions = {}) {
    this.#now = options.start ?? 1_700_000_000_000;
    this.#realAboveMs = options.realAboveMs ?? 10_000;
  }

  readonly now = (): number => this.#now;

  readonly timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = this.#nextId++;
      if (ms > this.#realAboveMs) {
        this.#real.set(
          id,
          setTimeout(() => {
            this.#real.delete(id);
            callback();
          }, ms),
        );
        return id;
      }
      this.#queue.set(id, { at: this.#now + Math.max(0, ms), callback });
      this.#pump();
      return id;
    },
    clearTimeout: (handle) => {
      if (typeof handle !== "number") return;
      this.#queue.delete(handle);
      const real = this.#real.get(handle);
      if (real !== undefined) clearTimeout(real);
      this.#real.delete(handle);
    },
  };

  /** Queued (virtual) timers. */
  get pending(): number {
    return this.#queue.size;
  }

  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
    this.#pump();
  }

  #pump(): void {
    if (!this.#held) setImmediate(() => this.#fireEarliest());
  }

  #fireEarliest(): void {
    if (this.#held) return;
    let earliest: [number, { readonly at: number; readonly callback: () => void }] | undefined;
    for (const candidate of this.#queue) {
      if (!earliest || candidate[1].at < earliest[1].at) earliest = candidate;
    }
    if (!earliest) return;
    const [id, timer] = earliest;
    this.#queue.delete(id);
    this.#now = Math.max(this.#now, timer.at);
    timer.callback();
    if (this.#queue.size > 0) this.#pump();
  }
}
