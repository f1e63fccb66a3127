/**
 * How the core's property tests run: a fixed seed and a fixed number of runs, so
 * `npm test` checks the same cases on every machine. A failure prints the seed and
 * the counterexample's path; replay it with `PROPERTY_SEED=<seed>`, explore with
 * another seed or more runs (`PROPERTY_RUNS`). Test-only: nothing in the package imports it.
 */
import fc from "fast-check";
import { expect } from "vitest";

export const PROPERTY_SEED = Number(process.env.PROPERTY_SEED ?? 20_261_205);
export const PROPERTY_RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

/** Asserts the property over `PROPERTY_RUNS` cases from `PROPERTY_SEED`, and that it ran them all. */
export async function assertProperty<Ts>(
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  runs = PROPERTY_RUNS,
): Promise<void> {
  const details = await fc.check(property, { seed: PROPERTY_SEED, numRuns: runs });
  if (details.failed) {
    throw new Error(
      `${fc.defaultReportMessage(details) ?? "the property failed"}\nreplay: PROPERTY_SEED=${details.seed}`,
      { cause: details.errorInstance },
    );
  }
  expect(details.numRuns, `runs from PROPERTY_SEED=${details.seed}`).toBe(runs);
}
