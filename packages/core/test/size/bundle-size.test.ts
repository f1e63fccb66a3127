// The size budgets (issue 16): what an app ships for the SDK, with its dependencies,
// minified and gzipped, in rolldown and in esbuild. A size check, not a timing one:
// the bytes are the same on every machine, so it belongs in `npm test`.
import { expect, test } from "vitest";
import { Bundler, measureBundle, SUBJECTS } from "../../../../bench/measure-bundle.ts";
import { SIZE_BUDGETS, SIZE_BUDGETS_WITH_SENDER } from "../../../../bench/size-budget.ts";

for (const bundler of [Bundler.rolldown, Bundler.esbuild]) {
  test(`a typical app stays within its budgets in ${bundler}`, async () => {
    const size = await measureBundle(SUBJECTS.typicalApp, bundler);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS.typicalApp);
    // The sending tab's chunk is there (the split holds), and counted with the rest.
    expect(size.senderGzipBytes).toBeGreaterThan(0);
    expect(size.gzipBytes + size.senderGzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS_WITH_SENDER.typicalApp);
  });

  test(`createOutboxClient alone stays within its budgets in ${bundler}`, async () => {
    const size = await measureBundle(SUBJECTS.clientOnly, bundler);
    expect(size.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS.clientOnly);
    expect(size.senderGzipBytes).toBeGreaterThan(0);
    expect(size.gzipBytes + size.senderGzipBytes).toBeLessThanOrEqual(SIZE_BUDGETS_WITH_SENDER.clientOnly);
  });
}
