import { useEffect, useState } from "react";

/** Clock and timers for the countdown; tests pass fakes. */
export interface CountdownClock {
  readonly now: () => number;
  readonly setInterval: (callback: () => void, ms: number) => unknown;
  readonly clearInterval: (handle: unknown) => void;
}

const systemClock: CountdownClock = {
  now: () => Date.now(),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

function secondsUntil(at: number | null, now: number): number | null {
  if (at === null) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Whole seconds left until `nextAttemptAt` (epoch ms), re-rendering each
 * second until it reaches 0; null when there is no scheduled attempt.
 */
export function useRetryCountdown(
  nextAttemptAt: number | null,
  clock: CountdownClock = systemClock,
): number | null {
  const [seconds, setSeconds] = useState(() => secondsUntil(nextAttemptAt, clock.now()));

  useEffect(() => {
    setSeconds(secondsUntil(nextAttemptAt, clock.now()));
    if (nextAttemptAt === null) return;
    const handle = clock.setInterval(() => {
      const left = secondsUntil(nextAttemptAt, clock.now());
      setSeconds(left);
      if (left === 0) clock.clearInterval(handle);
    }, 250);
    return () => clock.clearInterval(handle);
  }, [nextAttemptAt, clock]);

  return seconds;
}
