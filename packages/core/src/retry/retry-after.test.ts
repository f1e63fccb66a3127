import { expect, test } from "vitest";
import { parseHttpDate, parseRetryAfter } from "./retry-after";

const now = Date.UTC(2026, 10, 29, 18, 0, 0); // Sun, 29 Nov 2026 18:00:00 GMT

test("delta-seconds become milliseconds", () => {
  expect(parseRetryAfter("120", now)).toBe(120_000);
  expect(parseRetryAfter(" 5 ", now)).toBe(5_000);
  expect(parseRetryAfter("0", now)).toBe(0);
});

test("a negative number means now", () => {
  expect(parseRetryAfter("-3", now)).toBe(0);
});

test("an IMF-fixdate is relative to the injected now", () => {
  expect(parseRetryAfter("Sun, 29 Nov 2026 18:00:30 GMT", now)).toBe(30_000);
  expect(parseRetryAfter("Sun, 29 Nov 2026 18:00:30 GMT", now + 10_000)).toBe(20_000);
  expect(parseRetryAfter("Mon, 30 Nov 2026 18:00:00 GMT", now)).toBe(86_400_000);
});

test("a date in the past means now", () => {
  expect(parseRetryAfter("Sun, 29 Nov 2026 17:59:00 GMT", now)).toBe(0);
  expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(0);
});

test("the obsolete RFC 850 and asctime forms are read too", () => {
  expect(parseHttpDate("Sunday, 29-Nov-26 18:01:00 GMT", now)).toBe(now + 60_000);
  expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  expect(parseHttpDate("Sun Nov 29 18:00:45 2026", now)).toBe(now + 45_000);
  expect(parseHttpDate("Sun Nov  6 08:49:37 1994", now)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
});

test("garbage is undefined, including strings Date.parse would accept", () => {
  for (const value of [
    "",
    "soon",
    "1.5",
    "1e3",
    "0x10",
    "+5",
    "2026-11-29T18:00:30Z",
    "Sun, 29 Nov 2026 18:00:30 PST",
    "Sun, 31 Feb 2026 18:00:30 GMT",
    "Sun, 29 Nov 2026 25:00:30 GMT",
    "29 Nov 2026 18:00:30 GMT",
    "99999999999999999999",
  ]) {
    expect(parseRetryAfter(value, now), JSON.stringify(value)).toBeUndefined();
  }
  expect(parseRetryAfter(null, now)).toBeUndefined();
  expect(parseRetryAfter(undefined, now)).toBeUndefined();
});
