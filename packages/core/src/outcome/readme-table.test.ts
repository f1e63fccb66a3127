import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { verdictTableMarkdown } from "./verdict-table-markdown";

test("the README's verdict table is the classifier's own table (run `npm run docs:verdicts` after a change)", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.split("<!-- verdict-table:start -->")[1]?.split("<!-- verdict-table:end -->")[0];
  expect(section?.trim()).toBe(verdictTableMarkdown().trim());
});
