import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../mock-server/test/interop/agent-framework-peer";
import {
  type BehindGateway,
  behindGateway,
  expectCliPasses,
  expectMadeUpIdNotFound,
  expectTwoDevicesRunOnce,
  runCheck,
} from "./support/behind-gateway";

// Bare, Agent Framework 1.7 answers a concurrent duplicate APPROVAL_RESUME_INVALID and has
// no claim ack, cursors, re-attach or run status (docs/interop.md).
const unavailable = peerUnavailableReason("current");
if (unavailable !== undefined) console.warn(`skipped (gateway in front of Agent Framework): ${unavailable}`);

describe.skipIf(unavailable !== undefined)("the gateway in front of Agent Framework", () => {
  let running: BehindGateway;
  beforeAll(async () => {
    running = await behindGateway(() => startAgentFrameworkPeer("current"));
  }, 120_000);
  afterAll(async () => {
    await running?.close();
  });

  test("an identical duplicate while the tool runs: 1 execution, both see the one run", {
    timeout: 60_000,
  }, async () => {
    const result = await runCheck("concurrent-duplicate", running.target);
    expect(result.observed).toBe("finished + finished, 1 execution(s)");
  });

  test("two devices approving at once under their own keys: 1 execution, the other IN_PROGRESS or a replay", {
    timeout: 60_000,
  }, async () => {
    await expectTwoDevicesRunOnce(running.target);
  });

  test("a made-up interrupt id: NOT_FOUND and 0 executions", { timeout: 60_000 }, async () => {
    await expectMadeUpIdNotFound(running.target);
  });

  test("the conformance CLI behind the gateway: every check passes", { timeout: 120_000 }, async () => {
    await expectCliPasses(running, "agent-framework");
  });

  test("re-attach and run status are served from the record", { timeout: 60_000 }, async () => {
    for (const id of ["reattach", "run-status", "cursors", "claim-ack"]) {
      const result = await runCheck(id, running.target);
      expect({ id, ...result }).toMatchObject({ id, pass: true });
    }
  });
});

// 1.0.1 asks with a closed schema declaring `accepted` alone; the contract's checks answer
// `{approved, accepted}`, which the gateway's engine refused (APPROVAL_RESUME_INVALID_RESPONSE)
// before the gateway translated answers into the upstream's own schema.
const reportedUnavailable = peerUnavailableReason("reported");
if (reportedUnavailable !== undefined)
  console.warn(`skipped (gateway in front of Agent Framework 1.0.1): ${reportedUnavailable}`);

describe.skipIf(reportedUnavailable !== undefined)("the gateway in front of Agent Framework 1.0.1", () => {
  let running: BehindGateway;
  beforeAll(async () => {
    running = await behindGateway(() => startAgentFrameworkPeer("reported"));
  }, 120_000);
  afterAll(async () => {
    await running?.close();
  });

  test("the contract's answer runs the tool once; the identical retry is the marked replay; another decision is already resolved", {
    timeout: 60_000,
  }, async () => {
    for (const id of ["execute-once", "replay-identical", "replay-marked", "already-resolved", "claim-ack"]) {
      const result = await runCheck(id, running.target);
      expect({ id, ...result }).toMatchObject({ id, pass: true });
    }
  });

  test("an identical duplicate while the tool runs: 1 execution", { timeout: 60_000 }, async () => {
    const result = await runCheck("concurrent-duplicate", running.target);
    expect(result, result.observed).toMatchObject({ pass: true });
  });

  test("a made-up interrupt id: NOT_FOUND and 0 executions", { timeout: 60_000 }, async () => {
    await expectMadeUpIdNotFound(running.target);
  });

  test("the conformance CLI behind the gateway: every check passes but the two 1.0.1 prevents", {
    timeout: 120_000,
  }, async () => {
    await expectCliPasses(running, "agent-framework-reported");
  });
});
