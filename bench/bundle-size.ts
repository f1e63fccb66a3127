// Size: what the SDK adds to a browser app, in two bundlers, next to the libraries a
// React developer would otherwise reach for. Each subject is an app's imports bundled
// with every dependency, React, react-dom and @tanstack/react-query excluded, minified,
// then gzipped (level 9) and brotli-compressed (level 11). See measure-bundle.ts.
// Run: npx tsx bench/bundle-size.ts
//   BUNDLE_PEERS=1      also measures the peers (installed into node_modules/.cache/bundle-peers)
//   BUNDLE_MODULES=20   also lists the largest modules of each subject (rolldown, before minification)
import { installPeers, PEERS } from "./bundle-peers.ts";
import { Bundler, type BundleSize, measureBundle, SUBJECTS, type Subject } from "./measure-bundle.ts";
import { SIZE_BUDGETS } from "./size-budget.ts";

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const listed = Number(process.env.BUNDLE_MODULES ?? 0);

const rows: string[] = [];
rows.push(
  "| subject | rolldown min | rolldown gzip | rolldown brotli | esbuild min | esbuild gzip | esbuild brotli | on demand (gzip) | all (gzip) | budget (gzip) |",
);
rows.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");

async function measureRow(subject: Subject, budget?: number, resolveFrom?: string) {
  const sizes: BundleSize[] = [];
  for (const bundler of [Bundler.rolldown, Bundler.esbuild]) {
    sizes.push(await measureBundle(subject, bundler, resolveFrom ? { resolveFrom } : {}));
  }
  const cells = sizes.flatMap((size) => [kB(size.minifiedBytes), kB(size.gzipBytes), kB(size.brotliBytes)]);
  const met = (held: boolean) => (held ? "met" : "NOT MET");
  const verdict =
    budget === undefined ? "" : `${kB(budget)} ${met(sizes.every((size) => size.gzipBytes <= budget))}`;
  const both = (bytes: (size: BundleSize) => number) =>
    sizes.map((size) => (bytes(size) ? kB(bytes(size)) : "–")).join(" / ");
  const cellsAfter = [
    both((size) => size.lazyGzipBytes),
    both((size) => size.gzipBytes + size.lazyGzipBytes),
  ];
  rows.push(`| ${subject.label} | ${cells.join(" | ")} | ${cellsAfter.join(" | ")} | ${verdict} |`);
  console.log(rows.at(-1));
  for (const module of sizes[0]?.modules.slice(0, listed) ?? []) {
    const id = module.id.replace(/^.*?node_modules\//, "").replace(/^.*?\/packages\//, "packages/");
    console.log(`    ${kB(module.renderedBytes).padStart(9)}  ${id}`);
  }
}

console.log(rows.join("\n"));
await measureRow(SUBJECTS.typicalApp, SIZE_BUDGETS.typicalApp);
await measureRow(SUBJECTS.clientOnly, SIZE_BUDGETS.clientOnly);
await measureRow(SUBJECTS.everything);

if (process.env.BUNDLE_PEERS) {
  const folder = installPeers();
  for (const peer of PEERS) await measureRow(peer, undefined, folder);
}
