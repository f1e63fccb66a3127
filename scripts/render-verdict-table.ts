// Rewrites the verdict table in packages/core/README.md from VERDICT_TABLE, the
// classifier's own rows, so the documentation cannot drift from the code.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { verdictTableMarkdown } from "../packages/core/src/outcome/verdict-table-markdown.ts";

const readme = fileURLToPath(new URL("../packages/core/README.md", import.meta.url));
const start = "<!-- verdict-table:start -->";
const end = "<!-- verdict-table:end -->";

export function withVerdictTable(text: string): string {
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  return `${before}\n${verdictTableMarkdown()}\n${after}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(readme, withVerdictTable(readFileSync(readme, "utf8")));
}
