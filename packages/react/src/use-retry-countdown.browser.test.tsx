import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { type CountdownClock, useRetryCountdown } from "./use-retry-countdown";

afterEach(cleanup);

/** A clock the test advances by hand; interval callbacks run on `tick`. */
function manualClock(start: number) {
  let now = start;
  const callbacks = new Map<number, () => void>();
  let next = 1;
  const clock: CountdownClock = {
    now: () => now,
    setInterval: (callback) => {
      callbacks.set(next, callback);
      next += 1;
      return next - 1;
    },
    clearInterval: (handle) => {
      callbacks.delete(handle as number);
    },
  };
  return {
    clock,
    active: () => callbacks.size,
    advance(ms: number) {
      now += ms;
      for (const callback of [...callbacks.values()]) callback();
    },
  };
}

function Countdown(props: { at: number | null; clock: CountdownClock }) {
  const seconds = useRetryCountdown(props.at, props.clock);
  return <p data-testid="seconds">{seconds === null ? "none" : String(seconds)}</p>;
}

test("counts whole seconds down to zero, then stops ticking", () => {
  const time = manualClock(10_000);
  render(<Countdown at={13_000} clock={time.clock} />);
  expect(screen.getByTestId("seconds").textContent).toBe("3");
  act(() => time.advance(1_200));
  expect(screen.getByTestId("seconds").textContent).toBe("2");
  act(() => time.advance(1_000));
  expect(screen.getByTestId("seconds").textContent).toBe("1");
  act(() => time.advance(1_000));
  expect(screen.getByTestId("seconds").textContent).toBe("0");
  expect(time.active()).toBe(0);
});

test("null when nothing is scheduled, and no timer runs", () => {
  const time = manualClock(0);
  render(<Countdown at={null} clock={time.clock} />);
  expect(screen.getByTestId("seconds").textContent).toBe("none");
  expect(time.active()).toBe(0);
});
