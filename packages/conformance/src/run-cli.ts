import { type CliArgs, parseCliArgs, type ReadText, USAGE } from "./cli-args";
import { ConformanceError } from "./conformance-error";
import { CONTRACT_CHECKS } from "./contract-checks";
import { httpTarget } from "./http-target";
import { renderResults, summaryLine, tally } from "./results-table";
import { runChecks } from "./run-checks";

/** Where the CLI writes and reads; injected so tests run it in-process. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly readText?: ReadText;
}

/** The rules a contract server keeps; the rows that only describe a server are left out. */
const CLI_CHECKS = CONTRACT_CHECKS.filter((check) => check.contract !== false);

/** What the process should exit with. */
export const ExitCode = { ok: 0, checksFailed: 1, badInput: 2 } as const;

/**
 * `agui-outbox-conformance <agent-url> …`: runs the contract's checks and prints them.
 * Resolves with the exit code; never throws for bad input (that is exit 2 and a message).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv, io.readText);
  } catch (error) {
    if (!(error instanceof ConformanceError)) throw error;
    io.err(`agui-outbox-conformance: ${error.message}\n\n${USAGE}`);
    return ExitCode.badInput;
  }
  if (args.help) {
    io.out(USAGE);
    return ExitCode.ok;
  }
  const results = await runChecks(httpTarget(args.target), CLI_CHECKS);
  const counts = tally(results);
  if (args.json) {
    const rows = CLI_CHECKS.map((check) => ({ id: check.id, rule: check.rule, ...results.get(check.id) }));
    io.out(JSON.stringify({ ...counts, results: rows }, null, 2));
  } else {
    io.out(renderResults(CLI_CHECKS, results));
    io.out("");
    if (counts.skipped > 0) io.out(`${counts.skipped} not judged (the hooks they need were not given)`);
    io.out(summaryLine(counts));
  }
  return counts.failed > 0 ? ExitCode.checksFailed : ExitCode.ok;
}
