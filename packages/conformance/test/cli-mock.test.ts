import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readInteropTable } from "../../mock-server/test/interop/interop-table";
import { type RunningTarget, startMockTarget } from "../../mock-server/test/interop/interop-targets";
import { mockFlags, runCliCollecting, verdicts } from "./support";

// The CLI judges a server only over HTTP, so our mock's verdicts must be the ones
// docs/interop.md documents for the same mode.
const documented = readInteropTable(
  readFileSync(fileURLToPath(new URL("../../../docs/interop.md", import.meta.url)), "utf8"),
);

describe("against the mock in contract mode", () => {
  let mock: RunningTarget;
  beforeAll(async () => {
    mock = await startMockTarget("fixed");
  });
  afterAll(() => mock?.close());

  test("every check passes, exit 0, the last line counts them", { timeout: 60_000 }, async () => {
    const run = await runCliCollecting(mockFlags(mock.url));
    expect(run.err).toEqual([]);
    const seen = [...verdicts(run.out).values()];
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((verdict) => verdict === "pass")).toBe(true);
    expect(run.out.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(run.code).toBe(0);
  });

  test("without hooks, counts are not observed and faults are skipped", { timeout: 60_000 }, async () => {
    const run = await runCliCollecting([`${mock.url}/agent`]);
    const table = run.out.join("\n");
    expect(table).toContain("not observed: needs --ledger");
    expect(table).toContain("skipped: needs --chaos");
    expect(verdicts(run.out).get("drop-retry")).toBe("skipped");
    expect(verdicts(run.out).get("execute-once")).toBe("not observed");
    expect(verdicts(run.out).get("capabilities")).toBe("pass");
    expect(run.out.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(run.code).toBe(0);
  });

  test("--json prints the counts and each result", { timeout: 60_000 }, async () => {
    const run = await runCliCollecting([...mockFlags(mock.url), "--json"]);
    const report = JSON.parse(run.out.join("\n")) as { failed: number; results: Array<{ id: string }> };
    expect(report.failed).toBe(0);
    expect(report.results.map((result) => result.id)).toContain("reattach");
  });
});

describe("against the mock's af-lifecycle mode (no contract)", () => {
  let mock: RunningTarget;
  beforeAll(async () => {
    mock = await startMockTarget("af-lifecycle");
  });
  afterAll(() => mock?.close());

  test("fails where docs/interop.md says, exit 1", { timeout: 60_000 }, async () => {
    const run = await runCliCollecting(mockFlags(mock.url));
    const seen = verdicts(run.out);
    const expected = new Map([...seen.keys()].map((id) => [id, documented.get(id)?.get("af-lifecycle")]));
    expect(new Map([...seen].map(([id, verdict]) => [id, verdict === "pass"]))).toEqual(expected);
    const failed = [...seen.values()].filter((verdict) => verdict === "FAIL").length;
    expect(failed).toBeGreaterThan(0);
    expect(run.out.at(-1)).toBe(`${seen.size - failed} passed, ${failed} failed`);
    expect(run.code).toBe(1);
  });
});
