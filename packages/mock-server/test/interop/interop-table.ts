// The results table of docs/interop.md: rendered by `npm run docs:interop`, read back by
// the test that keeps it true. It is rendered in Biome's Markdown format (cells padded to
// their column's width), so the document is what the generator prints and a second run
// changes nothing.
import { type CheckResult, type ContractCheck, markdownTable } from "@agui-outbox/conformance";

/** Each emulation stands beside the real release it emulates. */
export const INTEROP_COLUMNS = [
  { id: "contract" },
  { id: "af-lifecycle" },
  { id: "agent-framework" },
  { id: "af-legacy" },
  { id: "agent-framework-reported" },
  { id: "langgraph" },
  { id: "pydantic-ai" },
] as const;

export type InteropColumnId = (typeof INTEROP_COLUMNS)[number]["id"];

/**
 * Cells whose result is a race, not a rule: ag-ui-langgraph 0.0.47 neither stops a run
 * when its client goes nor serialises two runs of one thread, so whether a second resume
 * runs the tool again depends on how far the first got. The table states the race (it
 * fails the check whenever it goes the wrong way); `npm run docs:interop` prints each
 * run's measurement, and the test that keeps the table true does not hold these cells to it.
 */
export const RACES: Partial<Record<InteropColumnId, Readonly<Record<string, string>>>> = {
  langgraph: {
    "drop-retry":
      "a race: the retry runs the tool again when it reads the thread before the first run moved on",
    "concurrent-duplicate":
      "a race: the second runs the tool again when it reads the thread before the first run moved on",
  },
};

const START = "<!-- interop-table:start -->";
const END = "<!-- interop-table:end -->";

const cell = (result: CheckResult | undefined) =>
  result === undefined ? "—" : `${result.pass ? "pass" : "FAIL"}: ${result.observed}`.replaceAll("|", "\\|");

export function renderInteropTable(
  checks: readonly ContractCheck[],
  columns: ReadonlyMap<string, ReadonlyMap<string, CheckResult>>,
  titles: Readonly<Record<InteropColumnId, string>>,
): string {
  const header = ["check", "DESIGN.md asks", ...INTEROP_COLUMNS.map((column) => titles[column.id])];
  const rows = checks.map((check) => [
    `\`${check.id}\``,
    check.rule,
    ...INTEROP_COLUMNS.map((column) => {
      const race = RACES[column.id]?.[check.id];
      return race === undefined ? cell(columns.get(column.id)?.get(check.id)) : `FAIL: ${race}`;
    }),
  ]);
  return markdownTable([header, ...rows]);
}

export function replaceInteropTable(document: string, table: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/interop.md lacks the ${START} … ${END} markers`);
  return `${document.slice(0, start + START.length)}\n\n${table}\n\n${document.slice(end)}`;
}

/** The documented pass/fail of each check, per column id: `table.get(checkId).get(columnId)`. */
export function readInteropTable(document: string): Map<string, Map<InteropColumnId, boolean>> {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  const rows = document
    .slice(start + START.length, end)
    .split("\n")
    .filter((line) => line.trim().startsWith("| `"));
  const table = new Map<string, Map<InteropColumnId, boolean>>();
  for (const row of rows) {
    const cells = row.split(/(?<!\\)\|/).map((text) => text.trim());
    const id = (cells[1] ?? "").replaceAll("`", "");
    const verdicts = new Map<InteropColumnId, boolean>();
    INTEROP_COLUMNS.forEach((column, index) => {
      verdicts.set(column.id, (cells[3 + index] ?? "").startsWith("pass"));
    });
    table.set(id, verdicts);
  }
  return table;
}
