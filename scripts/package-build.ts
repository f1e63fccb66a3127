// The one build every published package uses (`npm run build -w <package>`, and
// `prepack`): ESM for browsers and Node, declarations, source maps, into dist/.
// Dependencies and peers stay imports (tsdown externalises everything listed in
// package.json), so an app's bundler dedupes them with its own copies.
import type { UserConfig } from "tsdown";

export interface PackageBuildOptions {
  /** Files copied into dist/ as they are (stylesheets). */
  readonly copy?: readonly string[];
}

export function packageBuild(
  entry: Readonly<Record<string, string>>,
  options: PackageBuildOptions = {},
): UserConfig {
  return {
    entry: { ...entry },
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outDir: "dist",
    clean: true,
    sourcemap: true,
    // Declarations come from the TypeScript compiler over the package's own tsconfig,
    // bundled per entry; the workspace's source condition is not what consumers see.
    dts: { sourcemap: false },
    // Names stay readable: the app's bundler minifies.
    minify: false,
    treeshake: true,
    // One output file per source module: with `sideEffects: false` every bundler drops
    // whole modules an app does not reach, which statement-level tree-shaking of one
    // big chunk cannot do for schemas built at module level.
    unbundle: true,
    fixedExtension: false,
    copy: options.copy?.map((from) => ({ from, to: "dist" })) ?? [],
    inputOptions: { resolve: { conditionNames: ["import", "default"] } },
    logLevel: "warn",
    // How long the declaration plugin took is no news to whoever builds: on a busy machine
    // it printed a warning box on every build.
    checks: { pluginTimings: false },
  };
}
