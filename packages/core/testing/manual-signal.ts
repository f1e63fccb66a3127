import type { Signal } from "../src/client/deps";

/** A boolean signal flipped by hand: the `online` or `visible` source in tests. */
export function manualSignal(initial: boolean): Signal & { set(value: boolean): void } {
  let value = initial;
  const listeners = new Set<(value: boolean) => void>();
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      value = next;
      for (const listener of listeners) listener(next);
    },
  };
}
