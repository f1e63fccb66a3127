// Writes packages/core/src/protocol/ag-ui-mini.ts: @ag-ui/core's AG-UI schemas
// (dist/schemas.mjs) rewritten from zod's classic API to zod/mini. Classic zod
// schemas carry every method (JSON Schema conversion included) and cost a browser
// bundle about 20 kB gzipped; zod/mini builds the same checks from the same zod core,
// so validation and error issues are unchanged. The rewrite is mechanical:
//   a.optional()      -> z.optional(a)          a.nullable()  -> z.nullable(a)
//   a.refine(f)       -> a.check(z.refine(f))   a.default(f)  -> z._default(a, f)
//   a.transform(f)    -> z.pipe(a, z.transform(f))
//   a.min(n)/a.max(n) -> a.check(z.gte(n))/(z.lte(n)) on numbers, z.minLength/z.maxLength on strings and arrays
//   a.regex(r)        -> a.check(z.regex(r))    a.meta(m)     -> a.register(z.globalRegistry, m)
// and it refuses any other method, so a new construct upstream fails here instead of
// slipping through. packages/core/test/protocol/ag-ui-mini.test.ts checks the file is
// current and that both schema sets accept and reject the same events.
// Run: npx tsx scripts/generate-ag-ui-mini.ts
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repo = fileURLToPath(new URL("..", import.meta.url));
export const GENERATED_PATH = `${repo}packages/core/src/protocol/ag-ui-mini.ts`;
/**
 * `AgentCapabilitiesSchema` and what it is built from, in a module of their own:
 * the client checks the capabilities document on its first answer, and the event
 * schemas are loaded only when an event needs them (stream/load-event-validator.ts),
 * so a bundler must be able to ship the one without the other. ag-ui-mini.ts
 * imports the shared schemas from it and still exports every schema.
 */
export const CAPABILITIES_PATH = `${repo}packages/core/src/protocol/ag-ui-capabilities-mini.ts`;
const CAPABILITIES_ROOT = "AgentCapabilitiesSchema";

const f = ts.factory;
const zCall = (name: string, args: readonly ts.Expression[]) =>
  f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier("z"), name), undefined, args);
const check = (receiver: ts.Expression, name: string, args: readonly ts.Expression[]) =>
  f.createCallExpression(f.createPropertyAccessExpression(receiver, "check"), undefined, [zCall(name, args)]);

/** The `z.<factory>` call a method chain starts from (`z.int().min(0)` -> "int"). */
function chainRoot(node: ts.Expression): string | undefined {
  let current = node;
  while (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) {
    const target = current.expression.expression;
    if (ts.isIdentifier(target) && target.text === "z") return current.expression.name.text;
    current = target;
  }
  return undefined;
}

function bound(receiver: ts.Expression, method: "min" | "max", args: readonly ts.Expression[]) {
  const root = chainRoot(receiver);
  if (root === "int" || root === "number") return check(receiver, method === "min" ? "gte" : "lte", args);
  if (root === "string" || root === "array") {
    return check(receiver, method === "min" ? "minLength" : "maxLength", args);
  }
  throw new Error(`.${method}() on a z.${root ?? "?"} chain has no zod/mini rewrite yet`);
}

/** Rewrites one classic method call on a schema (not a `z.<factory>` call). */
function rewrite(method: string, receiver: ts.Expression, args: readonly ts.Expression[]): ts.Expression {
  switch (method) {
    case "optional":
    case "nullable":
      return zCall(method, [receiver]);
    case "refine":
      return check(receiver, "refine", args);
    case "default":
      return zCall("_default", [receiver, ...args]);
    case "transform":
      return zCall("pipe", [receiver, zCall("transform", args)]);
    case "regex":
      return check(receiver, "regex", args);
    case "meta":
      // Metadata only (for JSON Schema output); registered where classic's .meta() registers it.
      return f.createCallExpression(f.createPropertyAccessExpression(receiver, "register"), undefined, [
        f.createPropertyAccessExpression(f.createIdentifier("z"), "globalRegistry"),
        ...args,
      ]);
    case "min":
    case "max":
      return bound(receiver, method, args);
    default:
      throw new Error(`.${method}() has no zod/mini rewrite yet`);
  }
}

/**
 * The JavaScript lost `z.custom`'s type argument, which the declarations keep. All of
 * them are one type in this version; a second one would need mapping by name.
 */
function customType(declarations: string): string {
  const found = new Set([...declarations.matchAll(/ZodCustom<([^,<>]+(?:<[^<>]*>)?),/g)].map((m) => m[1]));
  if (found.size !== 1)
    throw new Error(`expected one z.custom type in the declarations, found ${[...found].join(" | ")}`);
  return [...found][0] ?? "";
}

const typed: ts.Visitor = (node) => {
  const next = ts.visitEachChild(node, typed, undefined);
  if (
    ts.isCallExpression(next) &&
    ts.isPropertyAccessExpression(next.expression) &&
    ts.isIdentifier(next.expression.expression) &&
    next.expression.expression.text === "z" &&
    next.expression.name.text === "custom"
  ) {
    const type = f.createTypeReferenceNode("CustomObject");
    return f.updateCallExpression(next, next.expression, [type], next.arguments);
  }
  return next;
};

const visit: ts.Visitor = (node) => {
  // Predicates passed to refine/custom are plain JavaScript: left as they are.
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return node;
  const next = ts.visitEachChild(node, visit, undefined);
  if (!ts.isCallExpression(next) || !ts.isPropertyAccessExpression(next.expression)) return next;
  const receiver = next.expression.expression;
  if (ts.isIdentifier(receiver) && receiver.text === "z") return next;
  return rewrite(next.expression.name.text, receiver, next.arguments);
};

function upstream(): { source: string; declarations: string; version: string } {
  const require = createRequire(`${repo}packages/core/package.json`);
  const packageJson = require.resolve("@ag-ui/core/package.json");
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  const dist = packageJson.replace(/package\.json$/, "dist/");
  return {
    source: readFileSync(`${dist}schemas.mjs`, "utf8"),
    declarations: readFileSync(`${dist}schemas.d.mts`, "utf8"),
    version,
  };
}

/** The one name a `const` statement declares, if it is one. */
function declaredName(statement: ts.Statement): string | undefined {
  if (!ts.isVariableStatement(statement)) return undefined;
  const [declaration, ...more] = statement.declarationList.declarations;
  return declaration && more.length === 0 && ts.isIdentifier(declaration.name)
    ? declaration.name.text
    : undefined;
}

/** The identifiers a statement mentions. */
function mentions(node: ts.Node, found = new Set<string>()): Set<string> {
  if (ts.isIdentifier(node)) found.add(node.text);
  ts.forEachChild(node, (child) => {
    mentions(child, found);
  });
  return found;
}

/** The statements `root` is built from, itself included: the capabilities module's body. */
function closureOf(root: string, statements: readonly ts.Statement[]): Set<string> {
  const byName = new Map<string, ts.Statement>();
  for (const statement of statements) {
    const name = declaredName(statement);
    if (name) byName.set(name, statement);
  }
  const closure = new Set<string>();
  const pending = [root];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const statement = byName.get(name);
    if (!statement || closure.has(name)) continue;
    closure.add(name);
    for (const mentioned of mentions(statement)) if (byName.has(mentioned)) pending.push(mentioned);
  }
  if (!closure.has(root)) throw new Error(`${root} is not declared in @ag-ui/core's schemas`);
  return closure;
}

function print(statements: readonly ts.Statement[], file: ts.SourceFile): string {
  return ts
    .createPrinter({ newLine: ts.NewLineKind.LineFeed })
    .printFile(f.updateSourceFile(file, statements));
}

function formatted(text: string, path: string): string {
  return execFileSync(`${repo}node_modules/.bin/biome`, ["check", "--write", `--stdin-file-path=${path}`], {
    input: text,
    encoding: "utf8",
  });
}

/** Both generated modules' text, by path, with Biome's safe fixes and formatting applied. */
export function generateAgUiMini(): Record<string, string> {
  const { source, declarations, version } = upstream();
  const file = ts.createSourceFile("schemas.mjs", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const statements = file.statements.flatMap((statement): ts.Statement[] => {
    if (ts.isImportDeclaration(statement)) {
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      if (from === "zod/v4") return [];
      // `EventType` lives in a hashed chunk of the package; its public home is the main entry.
      return [
        f.updateImportDeclaration(
          statement,
          statement.modifiers,
          statement.importClause,
          f.createStringLiteral("@ag-ui/core"),
          undefined,
        ),
      ];
    }
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      // PROTOCOL_VERSION is a constant, not a schema: the protocol module exports it from @ag-ui/core.
      const elements = statement.exportClause.elements.filter(
        (element) => element.name.text !== "PROTOCOL_VERSION",
      );
      return [
        f.updateExportDeclaration(
          statement,
          statement.modifiers,
          false,
          f.createNamedExports(elements),
          undefined,
          undefined,
        ),
      ];
    }
    return [ts.visitNode(ts.visitNode(statement, visit), typed) as ts.Statement];
  });
  const capabilityNames = closureOf(CAPABILITIES_ROOT, statements);
  const isCapability = (statement: ts.Statement) => capabilityNames.has(declaredName(statement) ?? "");
  const rest = statements.filter((statement) => !isCapability(statement));
  const restMentions = new Set(rest.flatMap((statement) => [...mentions(statement)]));
  const shared = [...capabilityNames].filter((name) => restMentions.has(name)).sort();
  const capabilitiesBody = print(
    [
      ...statements.filter(isCapability),
      f.createExportDeclaration(
        undefined,
        false,
        f.createNamedExports(
          [...capabilityNames].sort().map((name) => f.createExportSpecifier(false, undefined, name)),
        ),
      ),
    ],
    file,
  );
  const header = [
    `// Generated by scripts/generate-ag-ui-mini.ts from @ag-ui/core ${version} dist/schemas.mjs: do not edit.`,
  ];
  const customObject = [
    "// biome-ignore lint/suspicious/noExplicitAny: the type @ag-ui/core declares for its z.custom schemas.",
    `export type CustomObject = ${customType(declarations)};`,
  ];
  const capabilities = [
    ...header,
    "// The AG-UI capabilities schemas on zod/mini, apart from the event schemas (see the script).",
    'import * as z from "zod/mini";',
    "",
    ...customObject,
    capabilitiesBody,
  ].join("\n");
  const events = [
    ...header,
    "// The AG-UI schemas on zod/mini, for validating the wire in the browser bundle (see the script).",
    "// The AG-UI types still come from @ag-ui/core (protocol/ag-ui.ts).",
    'import { EventType } from "@ag-ui/core";',
    'import * as z from "zod/mini";',
    `import { type CustomObject, ${shared.join(", ")} } from "./ag-ui-capabilities-mini";`,
    "",
    print(rest, file).replace(
      /^import \{ n as EventType, t as PROTOCOL_VERSION \} from "@ag-ui\/core";\n/m,
      "",
    ),
  ].join("\n");
  return {
    [CAPABILITIES_PATH]: formatted(capabilities, CAPABILITIES_PATH),
    // Biome turns `/* @__PURE__ */ new RegExp(…)` into a literal, which the annotation
    // cannot mark: Rolldown warned of it (INVALID_ANNOTATION) on every build.
    [GENERATED_PATH]: formatted(events, GENERATED_PATH).replace("/* @__PURE__ */ /", "/"),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of Object.entries(generateAgUiMini())) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
