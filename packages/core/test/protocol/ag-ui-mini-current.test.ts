// protocol/ag-ui-mini.ts and ag-ui-capabilities-mini.ts are generated from the installed
// @ag-ui/core: after an upgrade (or an edit by hand) they must be generated again, or
// the wire is checked against an old copy of the protocol.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import {
  CAPABILITIES_PATH,
  GENERATED_PATH,
  generateAgUiMini,
} from "../../../../scripts/generate-ag-ui-mini.ts";

test("ag-ui-mini.ts and ag-ui-capabilities-mini.ts are what the generator makes from the installed @ag-ui/core", () => {
  const generated = generateAgUiMini();
  expect(Object.keys(generated).sort()).toEqual([CAPABILITIES_PATH, GENERATED_PATH].sort());
  for (const [path, text] of Object.entries(generated)) {
    expect(readFileSync(path, "utf8"), `run: npx tsx scripts/generate-ag-ui-mini.ts (${path})`).toBe(text);
  }
});
