// The core's modules form no import cycle (type-only imports included): each
// subsystem can be read, tested and tree-shaken on its own.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const src = fileURLToPath(new URL("../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.includes(".test") ? [path] : [];
  });
}

function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']/g)) {
    const base = resolve(dirname(file), match[1] ?? "");
    const target = [`${base}.ts`, join(base, "index.ts")].find((candidate) => known.has(candidate));
    if (target) found.push(target);
  }
  return found;
}

test("no import cycle in packages/core/src", () => {
  const files = sources(src);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
  const cycles: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "visiting");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "visiting") {
        cycles.push(
          stack
            .slice(stack.indexOf(next))
            .concat(next)
            .map((path) => relative(src, path))
            .join(" → "),
        );
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  expect(cycles).toEqual([]);
});
