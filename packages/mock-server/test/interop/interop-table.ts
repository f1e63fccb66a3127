// The results table of docs/interop.md: rendered by `npm run docs:interop`, read back by
// the test that keeps it true. Biome formats Markdown (it pads table cells), so the
// table is compared cell by cell, never as text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CheckResult, ContractCheck } from "./contract-checks";

function releaseTitle(requirementsFile: string): string {
  const pins = readFileSync(
    fileURLToPath(new URL(`../../../../e2e/peers/agent-framework/${requirementsFile}`, import.meta.url)),
    "utf8",
  );
  const pinned = (name: string) => new RegExp(`^${name}==(\\S+)$`, "m").exec(pins)?.[1] ?? "?";
  return `Agent Framework (ag-ui ${pinned("agent-framework-ag-ui")}, core ${pinned("agent-framework-core")})`;
}

function langGraphTitle(): string {
  const pins = readFileSync(
    fileURLToPath(new URL("../../../../e2e/peers/langgraph/requirements.txt", import.meta.url)),
    "utf8",
  );
  const pinned = (name: string) =>
    new RegExp(`^${name}(\\[[\\w,]+\\])?==(\\S+)$`, "m").exec(pins)?.[2] ?? "?";
  return `LangGraph (ag-ui-langgraph ${pinned("ag-ui-langgraph")}, langgraph ${pinned("langgraph")})`;
}

function pydanticAiTitle(): string {
  const pins = readFileSync(
    fileURLToPath(new URL("../../../../e2e/peers/pydantic-ai/requirements.txt", import.meta.url)),
    "utf8",
  );
  const pinned = /^pydantic-ai-slim\[ag-ui\]==(\S+)$/m.exec(pins)?.[1] ?? "?";
  return `pydantic-ai (pydantic-ai-slim ${pinned}, history on the server)`;
}

/** Each emulation stands beside the real release it emulates. */
export const INTEROP_COLUMNS = [
  { id: "contract", title: "mock, contract" },
  { id: "af-lifecycle", title: "mock, af-lifecycle" },
  { id: "agent-framework", title: releaseTitle("requirements.txt") },
  { id: "af-legacy", title: "mock, af-legacy" },
  { id: "agent-framework-reported", title: releaseTitle("requirements-reported.txt") },
  { id: "langgraph", title: langGraphTitle() },
  { id: "pydantic-ai", title: pydanticAiTitle() },
] as const;

export type InteropColumnId = (typeof INTEROP_COLUMNS)[number]["id"];

const START = "<!-- interop-table:start -->";
const END = "<!-- interop-table:end -->";

const cell = (result: CheckResult | undefined) =>
  result === undefined ? "—" : `${result.pass ? "pass" : "FAIL"}: ${result.observed}`.replaceAll("|", "\\|");

export function renderInteropTable(
  checks: readonly ContractCheck[],
  columns: ReadonlyMap<string, ReadonlyMap<string, CheckResult>>,
): string {
  const header = ["check", "DESIGN.md asks", ...INTEROP_COLUMNS.map((column) => column.title)];
  const rows = checks.map((check) => [
    `\`${check.id}\``,
    check.rule,
    ...INTEROP_COLUMNS.map((column) => cell(columns.get(column.id)?.get(check.id))),
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
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
