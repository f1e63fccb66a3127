// The size budgets (issue 16): what an app ships for the SDK, with its dependencies,
// minified and gzipped, in rolldown and in esbuild. A size check, not a timing one:
// the bytes are the same on every machine, so it belongs in `npm test`.
import { expect, test } from "vitest";
import { Bundler, measureBundle, SUBJECTS } from "../../../../bench/measure-bundle.ts";
import { SIZE_BUDGETS } from "../../../../bench/size-budget.ts";

// The code that sends is on the page: a sending tab fetches nothing more before it
// sends, so no chunk can fail to load offline and the budget counts all it loads.
const DELIVERY = /(^|\/)packages\/core\/src\/delivery\//;

for (const bundler of [Bundler.rolldown, Bundler.esbuild]) {
  test(`a typical app stays within its budget in ${bundler}, sending code included`, async () => {
    const size = await measureBundle(SUBJECTS.typicalApp, bundler);
    expect(size.lazyModules.filter((id) => DELIVERY.test(id))).toEqual([]);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS.typicalApp);
  });

  test(`createOutboxClient alone stays within its budget in ${bundler}, sending code included`, async () => {
    const size = await measureBundle(SUBJECTS.clientOnly, bundler);
    expect(size.lazyModules.filter((id) => DELIVERY.test(id))).toEqual([]);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS.clientOnly);
    // Not vacuous: the on-demand schemas are seen as loaded on demand.
    expect(size.lazyModules.some((id) => /\/validate-event\.ts$|\/zod\//.test(id))).toBe(true);
  });
}
