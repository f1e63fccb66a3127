import type { Timers } from "../stream/timers";

/** Waits `ms` on the injected timers; an abort ends the wait early (never rejects). */
export function abortableSleep(timers: Timers, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const handle = timers.setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        timers.clearTimeout(handle);
        resolve();
      },
      { once: true },
    );
  });
}
