// protocol/ag-ui-mini.ts is generated from the installed @ag-ui/core: after an upgrade
// (or an edit by hand) it must be generated again, or the wire is checked against an
// old copy of the protocol.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { GENERATED_PATH, generateAgUiMini } from "../../../../scripts/generate-ag-ui-mini.ts";

test("ag-ui-mini.ts is what the generator makes from the installed @ag-ui/core", () => {
  expect(readFileSync(GENERATED_PATH, "utf8"), "run: npx tsx scripts/generate-ag-ui-mini.ts").toBe(
    generateAgUiMini(),
  );
});
