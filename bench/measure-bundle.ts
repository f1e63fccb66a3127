// What a browser app pays to ship the SDK: an app's imports bundled the way an app
// build would, in two bundlers (rolldown, Vite 8's bundler, and esbuild), minified, then
// gzipped and brotli-compressed. React, react-dom and @tanstack/react-query are
// excluded: an app that uses the React package already ships them. Shared by the size
// CLI (bench/bundle-size.ts) and the size budgets `npm test` enforces
// (packages/core/test/size/bundle-size.test.ts).
//
// The workspace packages are bundled from their sources (the `@agui-outbox/source`
// export condition); dist/ is a per-module transpile of the same code, and the
// consumer tests (scripts/consumer-test.mjs) build real apps from the packed tarballs.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build as esbuild } from "esbuild";
import { type Plugin, rolldown } from "rolldown";

/** Peer libraries an app already has; never counted. */
export const EXCLUDED = ["react", "react-dom", "@tanstack/react-query"] as const;

export const Bundler = { rolldown: "rolldown", esbuild: "esbuild" } as const;
export type Bundler = (typeof Bundler)[keyof typeof Bundler];

/** What an app imports, as the entry module of a bundle. */
export interface Subject {
  readonly label: string;
  readonly source: string;
  /** Packages left out besides the excluded peers (core, when measuring react alone). */
  readonly alsoExclude?: readonly string[];
}

/** The SDK's own subjects; the peers' are in bench/bundle-peers.ts. */
export const SUBJECTS = {
  /** The app the budget is written for: a client, the provider, two hooks and the card. */
  typicalApp: {
    label: "typical app (client, provider, useThread, useApproval, card)",
    source: [
      'export { createOutboxClient } from "@agui-outbox/core";',
      'export { DefaultApprovalCard, OutboxProvider, useApproval, useThread } from "@agui-outbox/react";',
    ].join("\n"),
  },
  /** The framework-free client alone. */
  clientOnly: {
    label: "createOutboxClient alone",
    source: 'export { createOutboxClient } from "@agui-outbox/core";',
  },
  /** Every export of both packages: the most an app can ship. */
  everything: {
    label: "core + react, every export",
    source: 'export * as core from "@agui-outbox/core";\nexport * as react from "@agui-outbox/react";',
  },
} as const satisfies Record<string, Subject>;

export type SubjectName = keyof typeof SUBJECTS;

export interface BundleSize {
  readonly bundler: Bundler;
  /** What the page loads up front: the entry chunk and the chunks it imports statically. */
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  readonly brotliBytes: number;
  /**
   * Chunks loaded only on demand, gzipped together: the JSON-Schema validator and
   * the AG-UI event and capabilities schemas. None loads on an ordinary first
   * answer (packages/core/test/integration/first-answer-chunks.test.ts).
   */
  readonly lazyGzipBytes: number;
  /** The source modules in those on-demand chunks (paths as the bundler resolved them). */
  readonly lazyModules: readonly string[];
  /** Largest first, before minification (rolldown only; lazy chunks included). */
  readonly modules: readonly { readonly id: string; readonly renderedBytes: number }[];
}

const SOURCE_CONDITION = "@agui-outbox/source";
const repo = new URL("..", import.meta.url).pathname;
const ENTRY = "\0bundle-size-entry";
const DEFINE = { "process.env.NODE_ENV": '"production"' };

// Stylesheets and fonts a library imports are not JavaScript: left out of every figure.
const ASSET = /\.(css|woff2?|ttf|eot|svg|png)(\?.*)?$/;

const matches = (id: string, name: string) => id === name || id.startsWith(`${name}/`);

function excludedBy(names: readonly string[]) {
  return (id: string) => names.some((name) => matches(id, name));
}

function entryPlugin(source: string): Plugin {
  return {
    name: "bundle-size-entry",
    resolveId: (id) => (id === ENTRY ? ENTRY : null),
    load: (id) => (id === ENTRY ? source : ASSET.test(id) ? { code: "", moduleType: "js" } : null),
  };
}

async function rolldownBundle(subject: Subject, resolveFrom: string, excluded: readonly string[]) {
  const build = await rolldown({
    input: ENTRY,
    cwd: resolveFrom,
    platform: "browser",
    treeshake: true,
    resolve: { conditionNames: [SOURCE_CONDITION, "browser", "import", "module", "default"] },
    external: excludedBy(excluded),
    plugins: [entryPlugin(subject.source)],
    transform: { define: DEFINE, jsx: "react-jsx" },
    logLevel: "silent",
  });
  try {
    const { output } = await build.generate({ format: "esm", minify: true });
    const chunks = output.filter((file) => file.type === "chunk");
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name)) return;
      initial.add(name);
      for (const imported of byName.get(name)?.imports ?? []) visit(imported);
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
    const modules = chunks
      .flatMap((chunk) => Object.entries(chunk.modules))
      .map(([id, module]) => ({ id, renderedBytes: module.renderedLength }))
      .filter((module) => module.renderedBytes > 0)
      .sort((a, b) => b.renderedBytes - a.renderedBytes);
    return {
      initial: chunks.filter((chunk) => initial.has(chunk.fileName)).map((chunk) => chunk.code),
      lazy: chunks.filter((chunk) => !initial.has(chunk.fileName)).map((chunk) => chunk.code),
      lazyModules: chunks
        .filter((chunk) => !initial.has(chunk.fileName))
        .flatMap((chunk) => Object.keys(chunk.modules)),
      modules,
    };
  } finally {
    await build.close();
  }
}

async function esbuildBundle(subject: Subject, resolveFrom: string, excluded: readonly string[]) {
  const result = await esbuild({
    stdin: { contents: subject.source, resolveDir: resolveFrom, loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    // Lazily loaded parts (the validator, the event and tab schemas) become chunks, as in an app.
    splitting: true,
    outdir: "bundle-size",
    minify: true,
    treeShaking: true,
    conditions: [SOURCE_CONDITION],
    jsx: "automatic",
    loader: Object.fromEntries(
      [".css", ".woff", ".woff2", ".ttf", ".eot", ".svg", ".png"].map((ext) => [ext, "empty" as const]),
    ),
    define: DEFINE,
    metafile: true,
    plugins: [
      {
        name: "exclude-peers",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) =>
            args.kind !== "entry-point" && excludedBy(excluded)(args.path)
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const initial = new Set<string>();
  const visit = (name: string) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const imported of outputs[name]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  // A dynamically imported module is an entry point too in esbuild's metafile.
  for (const [name, output] of Object.entries(outputs)) if (output.entryPoint === "<stdin>") visit(name);
  const relative = (path: string) => path.slice(path.indexOf("/bundle-size/") + 1);
  const files = result.outputFiles.filter((file) => file.path.endsWith(".js"));
  return {
    initial: files.filter((file) => initial.has(relative(file.path))).map((file) => file.text),
    lazy: files.filter((file) => !initial.has(relative(file.path))).map((file) => file.text),
    lazyModules: Object.entries(outputs)
      .filter(([name]) => name.endsWith(".js") && !initial.has(name))
      .flatMap(([, output]) => Object.keys(output.inputs)),
    modules: [],
  };
}

const gzipTogether = (files: readonly string[]) =>
  files.length === 0 ? 0 : gzipSync(files.join("\n"), { level: 9 }).byteLength;

/**
 * Bundles one subject as an app's production build would: ESM for the browser,
 * tree-shaken with each package's `sideEffects` honoured, `process.env.NODE_ENV` set
 * to "production", minified, code split at dynamic imports. Sizes are of what the
 * page loads up front, gzip at level 9 and brotli at 11 (a sending tab included: it
 * loads nothing more); chunks loaded on demand are reported apart.
 * `resolveFrom` is where packages are looked up (the peers live in their own folder).
 */
export async function measureBundle(
  subject: Subject,
  bundler: Bundler,
  options: { readonly resolveFrom?: string; readonly alsoExclude?: readonly string[] } = {},
): Promise<BundleSize> {
  const excluded = [...EXCLUDED, ...(subject.alsoExclude ?? []), ...(options.alsoExclude ?? [])];
  const resolveFrom = options.resolveFrom ?? repo;
  const { initial, lazy, lazyModules, modules } =
    bundler === Bundler.rolldown
      ? await rolldownBundle(subject, resolveFrom, excluded)
      : await esbuildBundle(subject, resolveFrom, excluded);
  const joined = initial.join("\n");
  return {
    bundler,
    minifiedBytes: Buffer.byteLength(joined),
    gzipBytes: gzipSync(joined, { level: 9 }).byteLength,
    brotliBytes: brotliCompressSync(joined, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).byteLength,
    lazyGzipBytes: gzipTogether(lazy),
    lazyModules,
    modules,
  };
}
