import { expect, test } from "vitest";
import { VERDICT_TABLE } from "./verdict-table";
import { verdictTableMarkdown } from "./verdict-table-markdown";

test("the Markdown table has a header, a separator and one line per row, in table order", () => {
  const lines = verdictTableMarkdown().trimEnd().split("\n");
  expect(lines).toHaveLength(VERDICT_TABLE.length + 2);
  VERDICT_TABLE.forEach((row, index) => {
    expect(lines[index + 2]).toContain(`\`${row.id}\``);
    expect(lines[index + 2]).toContain(`**${row.verdict}**`);
  });
});

test("every data line has exactly five cells, even when a text holds a pipe", () => {
  const first = VERDICT_TABLE[0];
  if (!first) throw new Error("empty table");
  const markdown = verdictTableMarkdown([{ ...first, signal: "a | b", decision: "x\ny" }]);
  const line = markdown.trimEnd().split("\n")[2] ?? "";
  const cells = line.split(/(?<!\\)\|/).slice(1, -1);
  expect(cells).toHaveLength(5);
  expect(line).toContain("_Decision:_ x y");
});
