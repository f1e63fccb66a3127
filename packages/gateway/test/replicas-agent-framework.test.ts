import { randomUUID } from "node:crypto";
import { approval, askToDeploy, type CheckTarget, executions, resume } from "@agui-outbox/conformance";
import { Header, OutcomeCode } from "@agui-outbox/core/protocol";
import { PostgresStore } from "@agui-outbox/server/postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type AgentFrameworkPeer,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../mock-server/test/interop/agent-framework-peer";
import { type SseFrame, SseReader } from "../../mock-server/test/support/sse-reader";
import { postgresUnavailable, startPostgres, type TestPostgres } from "../../server/test/support/postgres";
import { endOf } from "./support/behind-gateway";
import { GatewayReplicas } from "./support/gateway-replicas";

// Three gateway processes (the CLI) on one Postgres in front of the real Agent Framework 1.7.
const unavailable = peerUnavailableReason("current") ?? postgresUnavailable();
if (unavailable !== undefined)
  console.warn(`skipped (three gateways in front of Agent Framework): ${unavailable}`);

const retryable = (event: SseFrame["event"] | undefined) =>
  event?.type === "RUN_ERROR" &&
  ([OutcomeCode.UNAVAILABLE, OutcomeCode.IN_PROGRESS] as string[]).includes(String(event.code));

describe.skipIf(unavailable !== undefined)(
  "three gateway replicas on one Postgres in front of Agent Framework",
  () => {
    let postgres: TestPostgres;
    let peer: AgentFrameworkPeer;
    let replicas: GatewayReplicas;
    const target = (id: string): CheckTarget => ({
      url: replicas.byId(id).url,
      ledger: () => peer.ledger(),
      chaos: (faults) => peer.chaos(faults),
    });

    beforeAll(async () => {
      postgres = await startPostgres();
      // Migrated once, before the replicas open it at the same moment.
      await (await PostgresStore.open({ connectionString: postgres.url })).close();
      peer = await startAgentFrameworkPeer("current");
      replicas = new GatewayReplicas({ upstream: `${peer.url}/agent`, store: postgres.url, count: 3 });
      await replicas.start();
    }, 120_000);

    afterAll(async () => {
      await replicas?.stop();
      await peer?.close();
      postgres?.stop();
    }, 60_000);

    const send = (id: string, body: unknown, key: string) =>
      fetch(`${replicas.byId(id).url}/agent`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          [Header.idempotencyKey]: key,
        },
        body: JSON.stringify(body),
      }).then((response) => new SseReader(response));

    test("kill -9 of the replica serving a stream after the tool result: re-attached through another, no gap, no duplicate, 1 execution", {
      timeout: 90_000,
    }, async () => {
      try {
        await killAfterToolResult();
      } finally {
        await replicas.restart("gateway-2");
      }
    });

    async function killAfterToolResult(): Promise<void> {
      const asked = await askToDeploy(target("gateway-1"), "kill");
      // The model's answer after the tool waits, so the replica dies between the result and the run's end.
      await peer.chaos([{ point: "after-tool", action: "delay", delayMs: 15_000, threadId: asked.threadId }]);
      const key = randomUUID();
      const body = resume(asked, approval(asked, true), key);
      const first = await send("gateway-2", body, key);
      await first.waitFor((reader) => reader.types.includes("TOOL_CALL_RESULT"));
      await replicas.kill("gateway-2");
      await first.done;

      const received: SseFrame[] = [...first.frames];
      // The client's next moves: re-attach after the last cursor it holds, on another replica.
      const attached = await fetch(`${replicas.byId("gateway-3").url}/agent/runs/${body.runId}/events`, {
        headers: { accept: "text/event-stream", [Header.lastEventId]: String(received.at(-1)?.id) },
      });
      expect(attached.status).toBe(200);
      const tail = new SseReader(attached);
      await tail.done;
      // The run the dead replica owned is ended by another one's sweeper once its lease lapsed.
      expect(tail.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.UNAVAILABLE });
      received.push(...tail.frames);
      // A retryable end (the dead replica's run, then its claim, lapse) → the same submission again, with backoff.
      for (let tries = 0; tries < 40 && retryable(received.at(-1)?.event); tries += 1) {
        // The client's own backoff: what it waits for is the dead replica's claim lease, which
        // lapses on the server's clock and sends no event.
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        const retried = await send("gateway-1", body, key);
        await retried.done;
        received.push(...retried.frames);
      }

      const ids = received.map((frame) => frame.id);
      expect(ids).toEqual(ids.map((_, index) => `${body.runId}:${index + 1}`));
      expect(received.at(-1)?.event.type).toBe("RUN_FINISHED");
      const results = received.filter((frame) => frame.event.type === "TOOL_CALL_RESULT");
      expect(results).toHaveLength(1);
      expect(await executions(target("gateway-1"), asked.threadId)).toBe(1);
    }

    test("two replicas racing a resume of one thread: 1 execution", { timeout: 90_000 }, async () => {
      for (const sameKey of [true, false]) {
        const asked = await askToDeploy(target("gateway-1"), sameKey ? "race-key" : "race-devices");
        // The tool takes a while, so the second request arrives while the first runs it.
        await peer.chaos([{ point: "mid-tool", action: "delay", delayMs: 1_500, threadId: asked.threadId }]);
        const keys = sameKey ? [randomUUID()].flatMap((key) => [key, key]) : [randomUUID(), randomUUID()];
        const runId = randomUUID();
        const bodies = keys.map((key) =>
          resume(asked, approval(asked, true), key, sameKey ? runId : randomUUID()),
        );
        const readers = await Promise.all([
          send("gateway-2", bodies[0], keys[0] as string),
          send("gateway-3", bodies[1], keys[1] as string),
        ]);
        await Promise.all(readers.map((reader) => reader.done));
        const endings = readers.map((reader) =>
          endOf({ status: 200, frames: reader.frames.map((frame) => ({ ...frame, at: 0 })), body: "" }),
        );
        expect({ sameKey, count: await executions(target("gateway-1"), asked.threadId) }).toEqual({
          sameKey,
          count: 1,
        });
        expect(endings).toContain("finished");
        for (const ending of endings)
          expect(["finished", "replayed", OutcomeCode.IN_PROGRESS]).toContain(ending);
      }
    });
  },
);
