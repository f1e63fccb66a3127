// A server that crashed and came back: the answer waiting on its network failure is
// sent when the server answers again, not when its own backoff (up to 30 s) runs out.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer } from "@agui-outbox/mock-server";
import { expect, test } from "vitest";
import {
  askForDeployment,
  chaos,
  entryReaches,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

test("a crashed server's return is noticed: the waiting answer goes within the probe's cap", async () => {
  const dir = mkdtempSync(join(tmpdir(), "outbox-return-"));
  const store = { kind: "file", path: join(dir, "state.json") } as const;
  const harness = await startHarness({ store });
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, {
    // The answer's own backoff is a minute: only noticing the return sends it sooner.
    retry: { backoff: { baseMs: 60_000, capMs: 60_000 } },
    deps: { fetch: recordingFetch(requests), random: () => 0.99 },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-return");
  await chaos(harness, [{ point: "before-claim", action: "crash" }]);

  const entry = await client.answer({ threadId: "t-return", interruptId: interrupt.id, approved: true });
  await harness.server.crashed;
  const waiting = await entryReaches(client, entry.key, ["retry_wait"]);
  expect(waiting.lastError?.kind).toBe("network");
  const restarted = await startMockServer({ port: harness.server.port, store, toolDurationMs: 5 });
  try {
    const final = await settled(client, entry.key, 10_000);
    expect(final.state).toBe("applied");
    expect(requests.filter((request) => request.idempotencyKey === entry.key)).toHaveLength(2);
    const executions = (await (await fetch(`${restarted.url}/__ledger`)).json()) as { executions: unknown[] };
    expect(executions.executions).toHaveLength(1);
  } finally {
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
