import type { Timers } from "../stream/timers";

/** One timer per key on the injected timers: setting one replaces the key's last. */
export class KeyTimers {
  readonly #timers: Timers;
  readonly #handles = new Map<string, unknown>();

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  set(key: string, ms: number, callback: () => void): void {
    this.cancel(key);
    const handle = this.#timers.setTimeout(() => {
      this.#handles.delete(key);
      callback();
    }, ms);
    this.#handles.set(key, handle);
  }

  has(key: string): boolean {
    return this.#handles.has(key);
  }

  cancel(key: string): void {
    const handle = this.#handles.get(key);
    if (handle === undefined) return;
    this.#timers.clearTimeout(handle);
    this.#handles.delete(key);
  }

  cancelAll(): void {
    for (const key of [...this.#handles.keys()]) this.cancel(key);
  }
}
