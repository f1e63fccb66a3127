import { expect, test, vi } from "vitest";
import { backoffDelay, DEFAULT_BACKOFF_BASE_MS, DEFAULT_BACKOFF_CAP_MS, nextDelay } from "./backoff";

const fixed = (value: number) => () => value;

test("defaults: base 1 s, cap 30 s", () => {
  expect(DEFAULT_BACKOFF_BASE_MS).toBe(1_000);
  expect(DEFAULT_BACKOFF_CAP_MS).toBe(30_000);
});

test("the window doubles per attempt until the cap", () => {
  const windows = [0, 1, 2, 3, 4, 5, 6, 7].map(
    (attempt) => backoffDelay(attempt, { random: fixed(0.5) }) * 2,
  );
  expect(windows).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
});

test("full jitter spans the whole window, from 0 to just under it", () => {
  for (const attempt of [0, 3, 10]) {
    const window = Math.min(30_000, 1_000 * 2 ** attempt);
    expect(backoffDelay(attempt, { random: fixed(0) })).toBe(0);
    const top = backoffDelay(attempt, { random: fixed(0.999_999) });
    expect(top).toBeLessThan(window);
    expect(top).toBeGreaterThanOrEqual(window - 1);
  }
});

test("the injected random is used, once per delay", () => {
  const random = vi.fn(() => 0.25);
  expect(nextDelay({ attempt: 2 }, { random })).toBe(1_000);
  expect(random).toHaveBeenCalledTimes(1);
});

test("a custom base and cap are honoured", () => {
  expect(backoffDelay(0, { baseMs: 200, capMs: 500, random: fixed(0.5) })).toBe(100);
  expect(backoffDelay(9, { baseMs: 200, capMs: 500, random: fixed(0.5) })).toBe(250);
});

test("odd attempts and a misbehaving random never give a negative, NaN or over-cap delay", () => {
  for (const attempt of [-3, 0.7, Number.NaN, Number.POSITIVE_INFINITY, 10_000]) {
    for (const value of [Number.NaN, -1, 1, 7]) {
      const delay = backoffDelay(attempt, { random: fixed(value) });
      expect(delay, `${attempt}/${value}`).toBeGreaterThanOrEqual(0);
      expect(delay, `${attempt}/${value}`).toBeLessThanOrEqual(30_000);
    }
  }
  expect(backoffDelay(-3, { random: fixed(0.5) })).toBe(500);
  expect(backoffDelay(10_000, { random: fixed(0.5) })).toBe(15_000);
});

test("Retry-After wins when it is larger than the backoff, and is not capped", () => {
  expect(nextDelay({ attempt: 0, retryAfterMs: 5_000 }, { random: fixed(0.9) })).toBe(5_000);
  expect(nextDelay({ attempt: 0, retryAfterMs: 120_000 }, { random: fixed(0.9) })).toBe(120_000);
});

test("the backoff wins when it is larger than Retry-After", () => {
  expect(nextDelay({ attempt: 4, retryAfterMs: 1_000 }, { random: fixed(0.5) })).toBe(8_000);
});

test("the stream's retry: value is a floor too", () => {
  expect(nextDelay({ attempt: 0, serverRetryMs: 3_000 }, { random: fixed(0.5) })).toBe(3_000);
  expect(nextDelay({ attempt: 0, serverRetryMs: 3_000, retryAfterMs: 4_000 }, { random: fixed(0) })).toBe(
    4_000,
  );
  expect(nextDelay({ attempt: 5, serverRetryMs: 3_000 }, { random: fixed(0.5) })).toBe(15_000);
});

test("negative or missing server hints are ignored", () => {
  expect(nextDelay({ attempt: 1, retryAfterMs: -5, serverRetryMs: Number.NaN }, { random: fixed(0.5) })).toBe(
    1_000,
  );
});
