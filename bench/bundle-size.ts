// Size: what the SDK adds to a browser app, next to the official AG-UI client.
// Each subject is bundled with rolldown (Vite 8's bundler) from its public entry with
// every dependency, React and @tanstack/react-query excluded, minified, gzipped.
// Run: npx tsx bench/bundle-size.ts
//   BUNDLE_MODULES=20   also lists the largest modules (tree-shaken, before minification)
//   BUNDLE_DEPS=1       also prints what each dependency adds to core + react, gzipped
import { measureBundle, SUBJECTS, type Subject } from "./measure-bundle.ts";
import { SIZE_BUDGET_GZIP_BYTES } from "./size-budget.ts";

const LABELS: Record<Subject, string> = {
  core: "@agui-outbox/core",
  react: "@agui-outbox/react (core excluded)",
  together: "core + react",
  agUiClient: "@ag-ui/client",
};

/** The SDK's runtime dependencies, besides the excluded peers. */
const DEPENDENCIES = ["zod", "@cfworker/json-schema", "eventsource-parser", "idb", "zustand", "@ag-ui/core"];

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const listed = Number(process.env.BUNDLE_MODULES ?? 0);

const sizes = [];
for (const subject of Object.keys(SUBJECTS) as Subject[]) {
  const size = await measureBundle(subject);
  sizes.push(size);
  console.log(
    `${LABELS[subject].padEnd(36)} ${kB(size.minifiedBytes).padStart(9)} min ${kB(size.gzipBytes).padStart(8)} gz`,
  );
  for (const module of size.modules.slice(0, listed)) {
    const id = module.id.replace(/^.*?node_modules\//, "").replace(/^.*?\/packages\//, "packages/");
    console.log(`    ${kB(module.renderedBytes).padStart(9)}  ${id}`);
  }
}

if (process.env.BUNDLE_DEPS) {
  const together = sizes.find((size) => size.subject === "together")?.gzipBytes ?? 0;
  for (const dependency of DEPENDENCIES) {
    const without = await measureBundle("together", [dependency]);
    console.log(`  ${dependency.padEnd(34)} adds ${kB(together - without.gzipBytes).padStart(8)} gz`);
  }
  const own = await measureBundle("together", DEPENDENCIES);
  console.log(`  ${"our own code (core + react)".padEnd(34)}      ${kB(own.gzipBytes).padStart(8)} gz`);
}

const ours = sizes.find((size) => size.subject === "together");
const theirs = sizes.find((size) => size.subject === "agUiClient");
if (ours && theirs) {
  console.log(
    `ratio core + react / @ag-ui/client: ${(ours.gzipBytes / theirs.gzipBytes).toFixed(2)}× gz ` +
      `(${(ours.minifiedBytes / theirs.minifiedBytes).toFixed(2)}× min)`,
  );
  console.log(
    `budget: ${kB(ours.gzipBytes)} of ${kB(SIZE_BUDGET_GZIP_BYTES)} gz; target 30.0 kB gz and less than @ag-ui/client`,
  );
}
