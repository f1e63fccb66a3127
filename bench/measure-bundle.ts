// What a browser app pays to ship the SDK: the packages bundled with every dependency
// the way an app build would (Vite 8 bundles with rolldown), minified, then gzipped.
// React and @tanstack/react-query are excluded: an app that uses the React package
// already ships them. Shared by the size CLI (bench/bundle-size.ts) and the size
// budget that `npm test` enforces (packages/core/test/bundle-size.test.ts).
import { gzipSync } from "node:zlib";
import { type Plugin, rolldown } from "rolldown";

/** Peer libraries an app already has; never counted. */
export const EXCLUDED = ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"] as const;

/** The bundles the size figures are taken from: one ESM entry each. */
export const SUBJECTS = {
  /** @agui-outbox/core with its dependencies. */
  core: 'export * from "@agui-outbox/core";',
  /** @agui-outbox/react with its own dependencies; core is counted under `core`. */
  react: 'export * from "@agui-outbox/react";',
  /** What an app using both ships: one bundle, shared dependencies counted once. */
  together: 'export * as core from "@agui-outbox/core";\nexport * as react from "@agui-outbox/react";',
  /** The official AG-UI client, measured the same way. */
  agUiClient: 'export * from "@ag-ui/client";',
} as const;

export type Subject = keyof typeof SUBJECTS;

/** One module's share of a bundle, before minification. */
export interface ModuleShare {
  readonly id: string;
  /** Bytes of the module's tree-shaken code, not minified. */
  readonly renderedBytes: number;
}

export interface BundleSize {
  readonly subject: Subject;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** Largest first. */
  readonly modules: readonly ModuleShare[];
}

const ENTRY = "\0bundle-size-entry";

function entryPlugin(source: string): Plugin {
  return {
    name: "bundle-size-entry",
    resolveId(id) {
      return id === ENTRY ? ENTRY : null;
    },
    load(id) {
      return id === ENTRY ? source : null;
    },
  };
}

const matches = (id: string, name: string) => id === name || id.startsWith(`${name}/`);

function isExcluded(id: string, subject: Subject, also: readonly string[]): boolean {
  if (subject === "react" && matches(id, "@agui-outbox/core")) return true;
  return [...EXCLUDED, ...also].some((name) => matches(id, name));
}

/**
 * Bundles one subject as an app's production build would: ESM for the browser,
 * tree-shaken with each package's `sideEffects` field honoured, `process.env.NODE_ENV`
 * set to "production", minified. Gzip at level 9. `alsoExclude` leaves more packages
 * out, to find what one dependency adds.
 */
export async function measureBundle(
  subject: Subject,
  alsoExclude: readonly string[] = [],
): Promise<BundleSize> {
  const build = await rolldown({
    input: ENTRY,
    cwd: new URL("..", import.meta.url).pathname,
    platform: "browser",
    treeshake: true,
    external: (id) => isExcluded(id, subject, alsoExclude),
    plugins: [entryPlugin(SUBJECTS[subject])],
    transform: { define: { "process.env.NODE_ENV": '"production"' }, jsx: "react-jsx" },
    logLevel: "silent",
  });
  try {
    const { output } = await build.generate({ format: "esm", minify: true });
    const chunks = output.filter((file) => file.type === "chunk");
    const code = chunks.map((chunk) => chunk.code).join("\n");
    const modules = chunks
      .flatMap((chunk) => Object.entries(chunk.modules))
      .map(([id, module]) => ({ id, renderedBytes: module.renderedLength }))
      .filter((module) => module.renderedBytes > 0)
      .sort((a, b) => b.renderedBytes - a.renderedBytes);
    return {
      subject,
      minifiedBytes: Buffer.byteLength(code),
      gzipBytes: gzipSync(code, { level: 9 }).byteLength,
      modules,
    };
  } finally {
    await build.close();
  }
}
