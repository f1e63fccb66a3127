import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type CheckResult, SERVER_CHECKS } from "@agui-outbox/conformance";
import { afterEach, expect, test, vi } from "vitest";
import { PYTHON_VARIABLE, peerUnavailableReason, pythonOf } from "./agent-framework-peer";
import {
  INTEROP_COLUMNS,
  type InteropColumnId,
  renderInteropTable,
  replaceInteropTable,
} from "./interop-table";
import { interopTitles } from "./interop-titles";

// `npm run docs:interop` must write docs/interop.md exactly as committed, so a second
// run leaves no diff: the committed format is Biome's, and the titles name what ran.

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const document = readFileSync(`${repo}docs/interop.md`, "utf8");

/** The committed table's cells, row by row, `\|` kept as written. */
function committedRows(): string[][] {
  const block = document.slice(
    document.indexOf("interop-table:start"),
    document.indexOf("interop-table:end"),
  );
  return block
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((text) => text.trim()),
    );
}

/** The titles and results the committed table was rendered from. */
function committedInputs() {
  const [header = [], , ...rows] = committedRows();
  const titles = Object.fromEntries(
    INTEROP_COLUMNS.map((column, index) => [column.id, header[2 + index] ?? ""]),
  ) as Record<InteropColumnId, string>;
  const columns = new Map<string, Map<string, CheckResult>>();
  for (const row of rows) {
    INTEROP_COLUMNS.forEach((column, index) => {
      const text = (row[2 + index] ?? "").replaceAll("\\|", "|");
      if (text === "—") return;
      const result = { pass: text.startsWith("pass: "), observed: text.slice("pass: ".length) };
      const results = columns.get(column.id) ?? new Map<string, CheckResult>();
      columns.set(column.id, results.set((row[0] ?? "").replaceAll("`", ""), result));
    });
  }
  return { titles, columns };
}

function biomeFormat(markdown: string): string {
  const biome = spawnSync(`${repo}node_modules/.bin/biome`, ["format", "--stdin-file-path=docs/interop.md"], {
    input: markdown,
    encoding: "utf8",
  });
  if (biome.status !== 0) throw new Error(`biome format failed: ${biome.stderr}`);
  return biome.stdout;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

test("rendering the committed table's results gives the committed document, byte for byte", () => {
  const { titles, columns } = committedInputs();
  const table = renderInteropTable(SERVER_CHECKS, columns, titles);
  expect(replaceInteropTable(document, table)).toBe(document);
});

test("the rendered table is already in Biome's format: escaped pipes, dashes, arrows, code spans", () => {
  const awkward: CheckResult[] = [
    { pass: true, observed: "a | b, — and … → c" },
    { pass: false, observed: "`APPROVAL_RESUME_NOT_FOUND`, 1 execution(s)" },
    { pass: true, observed: "x" },
  ];
  const checks = SERVER_CHECKS.slice(0, awkward.length);
  const results = new Map(awkward.map((result, index) => [checks[index]?.id ?? "", result]));
  const titles = Object.fromEntries(INTEROP_COLUMNS.map((column) => [column.id, column.id])) as Record<
    InteropColumnId,
    string
  >;
  const table = renderInteropTable(checks, new Map([["contract", results]]), titles);
  const markdown = `# t\n\n${table}\n`;
  expect(biomeFormat(markdown)).toBe(markdown);
});

const reportedUnavailable = peerUnavailableReason("reported");
test.skipIf(reportedUnavailable !== undefined)(
  "a column's title names the release its interpreter has installed, not the pinned one",
  () => {
    // The current release's column measured on another installed release (the reported one).
    vi.stubEnv(PYTHON_VARIABLE.current, pythonOf("reported"));
    expect(interopTitles()["agent-framework"]).toBe("Agent Framework (ag-ui 1.0.1, core 1.13.0)");
  },
);

test("no cell of the committed table quotes a thread id made for one run", () => {
  const quoted = committedRows()
    .flat()
    .filter((text) => /check-[a-z]+-[0-9a-f]{8}\b/.test(text));
  expect(quoted).toEqual([]);
});

test("a cell that is a race reads the same whichever way this run went", () => {
  const titles = Object.fromEntries(INTEROP_COLUMNS.map((column) => [column.id, column.id])) as Record<
    InteropColumnId,
    string
  >;
  const dropRetry = SERVER_CHECKS.filter((check) => check.id === "drop-retry");
  const measured = (result: CheckResult) =>
    renderInteropTable(dropRetry, new Map([["langgraph", new Map([["drop-retry", result]])]]), titles);
  expect(measured({ pass: true, observed: "retry finished, 1 execution(s)" })).toBe(
    measured({ pass: false, observed: "retry finished, 2 execution(s)" }),
  );
});
