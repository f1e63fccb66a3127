import { type CliIo, runCli } from "../src/index";

export interface CliRun {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

/** The CLI in-process, its output collected line by line. */
export async function runCliCollecting(
  argv: readonly string[],
  readText?: CliIo["readText"],
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    ...(readText === undefined ? {} : { readText }),
  };
  return { code: await runCli(argv, io), out, err };
}

/** The hooks of our mock server, as flags. */
export const mockFlags = (url: string) => [
  `${url}/agent`,
  "--ledger",
  `${url}/__ledger`,
  "--chaos",
  `${url}/__chaos`,
];

/** Each check's verdict in the printed table: `id → pass | FAIL | —`. */
export function verdicts(out: readonly string[]): Map<string, string> {
  const rows = out.flatMap((text) => text.split("\n")).filter((line) => line.startsWith("| `"));
  return new Map(
    rows.map((row) => {
      const cells = row.split(/(?<!\\)\|/).map((text) => text.trim());
      return [(cells[1] ?? "").replaceAll("`", ""), (cells[3] ?? "").split(":")[0] ?? ""];
    }),
  );
}
