// A resume refused with IN_PROGRESS (the crashed run still holds its claim) is sent
// again: the conversation must not say the run failed while its answer is retried.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer } from "@agui-outbox/mock-server";
import { expect, test } from "vitest";
import { askForDeployment, chaos, makeClient, settled, startHarness } from "./harness";

test("a resume answered IN_PROGRESS and sent again never shows the thread's run as failed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "outbox-in-progress-"));
  const store = { kind: "file", path: join(dir, "state.json") } as const;
  // The dead run's claim outlives several retries, so at least one is refused with IN_PROGRESS.
  const harness = await startHarness({ store, claimLeaseMs: 800 });
  const client = makeClient(harness, { retry: { backoff: { baseMs: 200, capMs: 400 } } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-in-progress");
  const thread = client.thread("t-in-progress");
  const runs: string[] = [];
  thread.store.subscribe((state) => runs.push(state.run.name));
  await chaos(harness, [{ point: "after-claim", action: "crash" }]);

  const entry = await client.answer({ threadId: "t-in-progress", interruptId: interrupt.id, approved: true });
  await harness.server.crashed;
  const restarted = await startMockServer({
    port: harness.server.port,
    store,
    claimLeaseMs: 800,
    toolDurationMs: 5,
  });
  try {
    const final = await settled(client, entry.key, 15_000);
    expect(final.state).toBe("applied");
    const { resumes } = (await (await fetch(`${restarted.url}/__resumes`)).json()) as { resumes: unknown[] };
    // Refused at least once by the live claim, then applied.
    expect(resumes.length).toBeGreaterThanOrEqual(2);
    expect(runs).not.toContain("failed");
    expect(thread.store.getState().run.name).toBe("finished");
  } finally {
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
