/**
 * How the engine schedules its periodic work: lease renewals of the runs and
 * background polls it holds, and the sweeper. Injected so a test can decide
 * when a renewal or a sweep happens instead of waiting for real time.
 */
export interface ServerClock {
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** `setInterval`, unreferenced so a pending renewal never keeps the process alive. */
export const realClock: ServerClock = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};
