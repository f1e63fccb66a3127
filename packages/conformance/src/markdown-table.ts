/**
 * A Markdown table as Biome formats it: every cell padded to its column's width (at
 * least 3, the shortest delimiter), the delimiter row all dashes. Widths count code
 * points; Biome counts display columns, which differ only for wide (East Asian) text.
 */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const width = (text: string) => [...text].length;
  const [header = [], ...body] = rows;
  const widths = header.map((_, column) => Math.max(3, ...rows.map((row) => width(row[column] ?? ""))));
  const line = (cells: readonly string[]) =>
    `| ${widths.map((w, column) => (cells[column] ?? "") + " ".repeat(w - width(cells[column] ?? ""))).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
