// No package's sources form an import circle, counting every kind of import:
// static, type-only (`import type`, `export type … from`, `import("…").T`) and
// dynamic `import()`. A circle through a lazy chunk or a type still ties the files
// together: neither side can be read, tested or split off alone.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const packages = join(repo, "packages");

type Kind = "static" | "dynamic" | "type";
/** How a circle prints each step: the edge's kind decides the arrow. */
const ARROW: Record<Kind, string> = { static: "→", dynamic: "⇢", type: "⇀" };
const LEGEND = "→ static import, ⇢ dynamic import(), ⇀ type-only import";

/** Every source file of every package: `packages/<name>/src`, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(path);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name);
    return isSource && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Workspace package specifiers (`@agui-outbox/core/protocol`) → their source file. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const dir of readdirSync(packages)) {
    const manifest = join(packages, dir, "package.json");
    if (!existsSync(manifest)) continue;
    const { name, exports } = JSON.parse(readFileSync(manifest, "utf8"));
    for (const [subpath, target] of Object.entries<unknown>(exports ?? {})) {
      const source =
        typeof target === "string" ? target : (target as Record<string, string>)["@agui-outbox/source"];
      if (source?.endsWith(".ts") || source?.endsWith(".tsx")) {
        entries.set(join(name, subpath), resolve(packages, dir, source));
      }
    }
  }
  return entries;
}

/** Each module specifier a source names, with the kind of import, read by TypeScript's parser. */
function specifiersIn(text: string): { specifier: string; kind: Kind }[] {
  const sourceFile = ts.createSourceFile("source.tsx", text, ts.ScriptTarget.Latest, false);
  const found: { specifier: string; kind: Kind }[] = [];
  const add = (node: ts.Node | undefined, kind: Kind) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, kind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ? "type" : "static");
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly ? "type" : "static");
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? "type" : "static");
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], "dynamic");
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, "type");
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

type Graph = Map<string, Map<string, Kind>>;

/** The import graph over the given files; imports of anything else are left out. */
function importGraph(files: readonly string[]): Graph {
  const known = new Set(files);
  const entries = workspaceEntries();
  const strength: Record<Kind, number> = { static: 2, dynamic: 1, type: 0 };
  const graph: Graph = new Map();
  for (const file of files) {
    const edges = new Map<string, Kind>();
    for (const { specifier, kind } of specifiersIn(readFileSync(file, "utf8"))) {
      const base = specifier.startsWith(".") ? resolve(dirname(file), specifier) : undefined;
      const candidates = base
        ? [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]
        : [entries.get(specifier) ?? ""];
      const target = candidates.find((candidate) => known.has(candidate));
      if (!target) continue;
      // Two imports of one file: the stronger one names the edge.
      const before = edges.get(target);
      if (!before || strength[kind] > strength[before]) edges.set(target, kind);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function knots(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/**
 * Every elementary circle inside one knot, each from its least file (the plain
 * search of Johnson's algorithm, without blocking: knots here are a few files), as
 * printable paths. Capped, as a knot of many files can hold very many circles.
 */
function circlesIn(graph: Graph, knot: readonly string[], cap = 50): string[] {
  const order = new Map(knot.map((file, i) => [file, i]));
  const name = (file: string) => relative(packages, file);
  const circles: string[] = [];
  const walk = (start: string, path: string[]): void => {
    const at = path[path.length - 1] as string;
    for (const [next, kind] of graph.get(at) ?? []) {
      if (circles.length >= cap) return;
      const rank = order.get(next);
      if (rank === undefined || rank < (order.get(start) ?? 0)) continue;
      if (next === start) {
        const steps = path.slice(1).map((file, i) => {
          return ` ${ARROW[graph.get(path[i] as string)?.get(file) ?? "static"]} ${name(file)}`;
        });
        circles.push(`${name(start)}${steps.join("")} ${ARROW[kind]} ${name(start)}`);
      } else if (!path.includes(next)) walk(start, [...path, next]);
    }
  };
  for (const start of knot) walk(start, [start]);
  return circles;
}

test("no import circle in any package's sources", () => {
  const files = readdirSync(packages)
    .map((dir) => join(packages, dir, "src"))
    .filter((dir) => existsSync(dir))
    .flatMap(sources);
  const graph = importGraph(files);
  const circles = knots(graph).flatMap((knot) => circlesIn(graph, knot));
  if (circles.length > 0) console.error(`import circles (${LEGEND}):\n${circles.join("\n")}`);
  expect(circles).toEqual([]);
});

test("the parser sees static, type-only and dynamic imports", () => {
  const probe = [
    'import type { A } from "./a";',
    'export type { B } from "./b";',
    'const c = () => import("./c");',
    'type D = import("./d").D;',
    'import { type E } from "./e";',
    'export * from "./f";',
    '// import("./not-code")',
  ].join("\n");
  expect(specifiersIn(probe)).toEqual([
    { specifier: "./a", kind: "type" },
    { specifier: "./b", kind: "type" },
    { specifier: "./c", kind: "dynamic" },
    { specifier: "./d", kind: "type" },
    // Under verbatimModuleSyntax `import { type E }` still loads "./e" at run time.
    { specifier: "./e", kind: "static" },
    { specifier: "./f", kind: "static" },
  ]);
});
