import { CheckSkipped } from "./check-skipped";
import { type CheckTarget, withoutThreadIds } from "./check-wire";
import { type CheckResult, type ContractCheck, SERVER_CHECKS } from "./contract-checks";

/**
 * Runs the checks one after another (they share the server's ledger) and never throws: a
 * check that errors fails with the error as its observation.
 * @default checks SERVER_CHECKS
 */
export async function runChecks(
  target: CheckTarget,
  checks: readonly ContractCheck[] = SERVER_CHECKS,
): Promise<Map<string, CheckResult>> {
  const results = new Map<string, CheckResult>();
  for (const check of checks) {
    try {
      const result = await check.run(target);
      results.set(check.id, { ...result, observed: withoutThreadIds(result.observed) });
    } catch (error) {
      if (error instanceof CheckSkipped) {
        results.set(check.id, { pass: false, skipped: true, observed: error.message });
        continue;
      }
      results.set(check.id, { pass: false, observed: `error: ${(error as Error).message}` });
    }
  }
  return results;
}
