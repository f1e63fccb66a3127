import { randomUUID } from "node:crypto";
import { post } from "@agui-outbox/conformance";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  pydanticAiPeerUnavailableReason,
  startPydanticAiPeer,
} from "../../mock-server/test/interop/pydantic-ai-peer";
import {
  approveTwice,
  type BehindGateway,
  behindGateway,
  expectCliPasses,
  expectMadeUpIdNotFound,
  runCheck,
} from "./support/behind-gateway";

// Bare, pydantic-ai-slim runs the tool twice for a retry after a dropped stream and for a
// concurrent duplicate (docs/interop.md). Behind the gateway: once, by the peer's ledger.
const unavailable = pydanticAiPeerUnavailableReason();
if (unavailable !== undefined) console.warn(`skipped (gateway in front of pydantic-ai): ${unavailable}`);

describe.skipIf(unavailable !== undefined)("the gateway in front of pydantic-ai", () => {
  let running: BehindGateway;
  beforeAll(async () => {
    running = await behindGateway(() => startPydanticAiPeer("server"));
  }, 120_000);
  afterAll(async () => {
    await running?.close();
  });

  test("the connection drops past the tool's result, then the identical retry: finished, 1 execution", {
    timeout: 60_000,
  }, async () => {
    const result = await runCheck("drop-retry", running.target);
    expect(result.observed).toBe("retry finished, 1 execution(s)");
  });

  test("an identical duplicate while the tool runs: 1 execution", { timeout: 60_000 }, async () => {
    const result = await runCheck("concurrent-duplicate", running.target);
    expect(result, result.observed).toMatchObject({ pass: true });
    expect(result.observed).toContain("1 execution(s)");
  });

  test("an identical pair at once: 1 execution, both see the one run finish", {
    timeout: 60_000,
  }, async () => {
    expect(await approveTwice(running.target, "pair", true)).toEqual({
      replies: ["finished", "finished"],
      count: 1,
    });
  });

  test("a made-up interrupt id: NOT_FOUND and 0 executions", { timeout: 60_000 }, async () => {
    await expectMadeUpIdNotFound(running.target);
  });

  // What bench/gateway.ts times: the peer's long run ("stream N"), read whole through the gateway.
  test("a long run streams through whole: every delta of the peer's, once, in order", {
    timeout: 60_000,
  }, async () => {
    const deltas = async (url: string) => {
      const reply = await post(
        { url },
        {
          threadId: `long-${randomUUID()}`,
          runId: randomUUID(),
          messages: [{ id: randomUUID(), role: "user", content: "stream 300" }],
        },
      );
      const last = reply.frames.at(-1)?.event.type;
      const text = reply.frames.filter(({ event }) => event.type === "TEXT_MESSAGE_CONTENT");
      return { last, deltas: text.map(({ event }) => event.delta) };
    };
    const expected = Array.from({ length: 300 }, (_, index) => `word ${index} `);
    expect(await deltas(running.peer.url)).toEqual({ last: "RUN_FINISHED", deltas: expected });
    expect(await deltas(running.gateway.url)).toEqual({ last: "RUN_FINISHED", deltas: expected });
  });

  test("the conformance CLI behind the gateway: every check passes", { timeout: 120_000 }, async () => {
    await expectCliPasses(running, "pydantic-ai");
  });
});
