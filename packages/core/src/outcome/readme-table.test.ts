import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { verdictTableMarkdown } from "./verdict-table-markdown";

// Cells, trimmed: the Markdown formatter pads and aligns the table, which changes nothing.
const cells = (table: string) =>
  table
    .trim()
    .split("\n")
    .map((line) =>
      line
        .split("|")
        .map((cell) => cell.trim().replace(/^-+$/, "---"))
        .join("|"),
    );

test("the README's verdict table is the classifier's own table (run `npm run docs:verdicts` after a change)", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section =
    readme.split("<!-- verdict-table:start -->")[1]?.split("<!-- verdict-table:end -->")[0] ?? "";
  expect(cells(section)).toEqual(cells(verdictTableMarkdown()));
});
