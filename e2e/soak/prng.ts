// A small seeded PRNG (mulberry32): the same seed draws the same schedule on every machine.

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
  };
}

/**
 * The seed of schedule `index` in a run started from `base`. Schedule 0 is `base` itself,
 * so `SOAK_SEED=<a printed seed> SOAK_RUNS=1` replays exactly that schedule.
 */
export function scheduleSeed(base: number, index: number): number {
  if (index === 0) return base >>> 0;
  return Math.floor(mulberry32((base ^ Math.imul(index, 0x9e3779b9)) >>> 0).next() * 4294967296) >>> 0;
}
