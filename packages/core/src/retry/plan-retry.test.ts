import { expect, test } from "vitest";
import { ErrorKind } from "../errors/outbox-error";
import { planRetry } from "./plan-retry";
import {
  DEFAULT_RETRY_MAX_ATTEMPTS,
  DEFAULT_RETRY_MAX_ELAPSED_MS,
  isRetryBudgetExhausted,
} from "./retry-budget";

const half = { random: () => 0.5 };

test("budget defaults: 12 attempts, 15 minutes", () => {
  expect(DEFAULT_RETRY_MAX_ATTEMPTS).toBe(12);
  expect(DEFAULT_RETRY_MAX_ELAPSED_MS).toBe(900_000);
});

test("the budget runs out on attempts", () => {
  const input = { firstAttemptAt: 0, now: 1_000, nextDelayMs: 1_000 };
  expect(isRetryBudgetExhausted({ ...input, attempts: 2 }, { maxAttempts: 3 })).toBe(false);
  expect(isRetryBudgetExhausted({ ...input, attempts: 3 }, { maxAttempts: 3 })).toBe(true);
});

test("the budget runs out when the next attempt would start past the elapsed limit", () => {
  const input = { attempts: 1, firstAttemptAt: 10_000 };
  expect(
    isRetryBudgetExhausted({ ...input, now: 50_000, nextDelayMs: 20_000 }, { maxElapsedMs: 60_000 }),
  ).toBe(false);
  expect(
    isRetryBudgetExhausted({ ...input, now: 50_000, nextDelayMs: 20_001 }, { maxElapsedMs: 60_000 }),
  ).toBe(true);
});

test("a retry is planned from the clock it is given, with the first attempt's window", () => {
  expect(planRetry({ attempts: 1, firstAttemptAt: 0, now: 5_000 }, { backoff: half })).toEqual({
    kind: "retry",
    delayMs: 500,
    retryAt: 5_500,
  });
  expect(planRetry({ attempts: 4, firstAttemptAt: 0, now: 5_000 }, { backoff: half })).toMatchObject({
    delayMs: 4_000,
  });
});

test("Retry-After decides retryAt when it is longer: no request earlier than allowed", () => {
  const plan = planRetry(
    { attempts: 1, firstAttemptAt: 0, now: 1_000, retryAfterMs: 7_000 },
    { backoff: half },
  );
  expect(plan).toEqual({ kind: "retry", delayMs: 7_000, retryAt: 8_000 });
});

test("a Retry-After beyond the elapsed budget exhausts it with a typed error", () => {
  const plan = planRetry(
    { attempts: 2, firstAttemptAt: 0, now: 60_000, retryAfterMs: 3_600_000 },
    { backoff: half, budget: { maxElapsedMs: 900_000 } },
  );
  expect(plan.kind).toBe("exhausted");
  if (plan.kind === "exhausted") expect(plan.error.kind).toBe(ErrorKind.retryBudgetExhausted);
});

test("the default budget stops after the twelfth send", () => {
  const at = (attempts: number) => planRetry({ attempts, firstAttemptAt: 0, now: 0 }, { backoff: half }).kind;
  expect(at(11)).toBe("retry");
  expect(at(12)).toBe("exhausted");
});
