// The size budget (issue 9, benchmark 6): core + react as a browser app ships them,
// with their dependencies, minified and gzipped. A size check, not a timing one: the
// bytes are the same on every machine, so it belongs in `npm test`.
import { expect, test } from "vitest";
import { measureBundle } from "../../../../bench/measure-bundle.ts";
import { SIZE_BUDGET_GZIP_BYTES } from "../../../../bench/size-budget.ts";

test("core + react stay within the size budget and below @ag-ui/client", async () => {
  const [ours, theirs] = await Promise.all([measureBundle("together"), measureBundle("agUiClient")]);
  expect(ours.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET_GZIP_BYTES);
  expect(ours.gzipBytes).toBeLessThan(theirs.gzipBytes);
});
