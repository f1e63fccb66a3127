import type { Timers } from "../stream/timers";

/** Waits `ms` on the injected timers; an abort ends the wait early (never rejects). */
export function abortableSleep(timers: Timers, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      resolve();
    };
    // The signal outlives every wait: a wait that runs its course takes its listener with it.
    const handle = timers.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
