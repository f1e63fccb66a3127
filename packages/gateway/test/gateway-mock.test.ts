import { type CheckTarget, CONTRACT_CHECKS } from "@agui-outbox/conformance";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningTarget, startMockTarget } from "../../mock-server/test/interop/interop-targets";
import { type RunningGateway, startGateway } from "./support/start-gateway";

// The mock emulating Agent Framework 1.7 has none of the contract (docs/interop.md); behind
// the gateway every contract check must pass, judged by the same checks over plain HTTP.
// `model-failure-thread` reads the thread for servers without the contract, so it is not
// one (its check says `contract: false`).

let upstream: RunningTarget;
let running: RunningGateway;
let target: CheckTarget;

beforeAll(async () => {
  upstream = await startMockTarget("af-lifecycle");
  running = await startGateway(`${upstream.url}/agent`);
  target = { url: running.url, ledger: upstream.ledger, chaos: upstream.chaos };
});

afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe("in front of a server without the contract (the mock's af-lifecycle)", () => {
  for (const check of CONTRACT_CHECKS.filter((c) => c.contract !== false)) {
    test(`${check.id}: ${check.rule}`, async () => {
      const result = await check.run(target);
      expect(result, result.observed).toMatchObject({ pass: true });
    });
  }
});
