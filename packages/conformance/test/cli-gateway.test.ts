import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningGateway, startGateway } from "../../gateway/test/support/start-gateway";
import { type RunningTarget, startMockTarget } from "../../mock-server/test/interop/interop-targets";
import { runCliCollecting, verdicts } from "./support";

// The mock's af-lifecycle mode has none of the contract; the gateway in front of it must
// make every check pass, as judged by the CLI over plain HTTP (hooks on the upstream).
let upstream: RunningTarget;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startMockTarget("af-lifecycle");
  running = await startGateway(`${upstream.url}/agent`);
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

test("behind the gateway every check passes", { timeout: 60_000 }, async () => {
  const run = await runCliCollecting([
    `${running.url}/agent`,
    "--ledger",
    `${upstream.url}/__ledger`,
    "--chaos",
    `${upstream.url}/__chaos`,
  ]);
  expect(verdicts(run.out).size).toBeGreaterThan(10);
  const failing = [...verdicts(run.out)].filter(([, verdict]) => verdict !== "pass");
  expect(failing, run.out.join("\n")).toEqual([]);
  expect(run.out.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  expect(run.code).toBe(0);
});
