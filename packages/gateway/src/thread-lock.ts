/**
 * One upstream run at a time per key (identity and thread): servers such as
 * LangGraph's adapter let two runs of one thread read the same checkpoint and
 * both run its tool. `acquire` resolves once `key` is free, with the function
 * that frees it again.
 */
export interface ThreadLock {
  acquire(key: string): Promise<() => void>;
  /** Frees what the lock holds (connections); called by the gateway's `close`. */
  close?(): Promise<void>;
}

/**
 * {@link ThreadLock} in this process, waiters in arrival order: enough for one
 * gateway; replicas on one Postgres share `PostgresThreadLock` instead.
 */
export class InProcessThreadLock implements ThreadLock {
  readonly #tails = new Map<string, Promise<void>>();

  async acquire(key: string): Promise<() => void> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    let free!: () => void;
    const mine = new Promise<void>((resolve) => {
      free = resolve;
    });
    const tail = before.then(() => mine);
    this.#tails.set(key, tail);
    await before;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      free();
      // The last holder leaves no entry behind.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
  }

  /** Keys held or waited for now (for tests and metrics). */
  get size(): number {
    return this.#tails.size;
  }
}
