import type { CheckResult, ContractCheck } from "./contract-checks";
import { markdownTable } from "./markdown-table";

export interface Tally {
  readonly passed: number;
  readonly failed: number;
  /** Checks the target's hooks could not judge: neither passed nor failed. */
  readonly skipped: number;
}

export function tally(results: ReadonlyMap<string, CheckResult>): Tally {
  const all = [...results.values()];
  const skipped = all.filter((result) => result.skipped).length;
  const passed = all.filter((result) => result.pass).length;
  return { passed, failed: all.length - passed - skipped, skipped };
}

// A skipped check's observation already says why ("skipped: needs --chaos").
const cellOf = (result: CheckResult) =>
  result.skipped ? result.observed : `${result.pass ? "pass" : "FAIL"}: ${result.observed}`;

/** One server's results as a Markdown table: check, what the contract asks, the verdict. */
export function renderResults(
  checks: readonly ContractCheck[],
  results: ReadonlyMap<string, CheckResult>,
): string {
  const rows = checks.flatMap((check) => {
    const result = results.get(check.id);
    if (result === undefined) return [];
    const cell = cellOf(result).replaceAll("|", "\\|");
    return [[`\`${check.id}\``, check.rule, cell]];
  });
  return markdownTable([["check", "the contract asks", "result"], ...rows]);
}

/** The last line of the CLI's output, plain for scripts to read. */
export const summaryLine = ({ passed, failed }: Tally) => `${passed} passed, ${failed} failed`;
