import { VERDICT_TABLE, type VerdictRow } from "./verdict-table";

// Pipes would split a cell; newlines would end the row.
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/**
 * The verdict table as a Markdown table (rule, servers, signal, verdict, why),
 * so the docs print exactly what the classifier runs.
 */
export function verdictTableMarkdown(rows: readonly VerdictRow[] = VERDICT_TABLE): string {
  const lines = ["| rule | servers | signal | verdict | why |", "|---|---|---|---|---|"];
  for (const row of rows) {
    const why =
      row.decision === undefined ? row.description : `${row.description} _Decision:_ ${row.decision}`;
    lines.push(
      `| \`${row.id}\` | ${row.servers.join(", ")} | ${cell(row.signal)} | **${row.verdict}** | ${cell(why)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
