import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer } from "@agui-outbox/mock-server";
import { expect, test } from "vitest";
import { manualSignal } from "../../testing/manual-signal";
import {
  askForDeployment,
  chaos,
  entryReaches,
  ledger,
  makeClient,
  type RequestRecord,
  recordingFetch,
  settled,
  startHarness,
} from "./harness";

test("a stream dropped after the claim is re-attached: applied once, no message twice", async () => {
  const harness = await startHarness({ toolDurationMs: 50 });
  const requests: RequestRecord[] = [];
  const client = makeClient(harness, { deps: { fetch: recordingFetch(requests) } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-drop");
  await chaos(harness, [{ point: "mid-stream", action: "drop", afterEvents: 2 }]);

  const entry = await client.answer({ threadId: "t-drop", interruptId: interrupt.id, approved: true });
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  expect(final.attempts).toBe(1);
  expect(requests.filter((request) => request.url.endsWith(`/runs/${entry.runId}/events`))).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
  const messages = client.thread("t-drop").store.getState().messages;
  const ids = messages.map((message) => message.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(messages.filter((message) => message.role === "tool")).toHaveLength(1);
  expect(
    messages.filter((message) => message.role === "assistant" && message.content === "Deployed to prod."),
  ).toHaveLength(1);
});

test("429 with Retry-After: the next request waits at least that long; applied once", async () => {
  const harness = await startHarness();
  const requests: RequestRecord[] = [];
  const online = manualSignal(true);
  const client = makeClient(harness, { deps: { fetch: recordingFetch(requests), online } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-429");
  await chaos(harness, [{ point: "before-response", action: "status", status: 429, retryAfterMs: 1000 }]);

  const entry = await client.answer({ threadId: "t-429", interruptId: interrupt.id, approved: true });
  await entryReaches(client, entry.key, ["retry_wait"]);
  // An online hint during the wait must not cut the server's Retry-After short.
  online.set(false);
  online.set(true);
  const final = await settled(client, entry.key);

  expect(final.state).toBe("applied");
  const resumes = requests.filter((request) => request.idempotencyKey === entry.key);
  expect(resumes).toHaveLength(2);
  const [first, second] = resumes;
  expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  expect(await ledger(harness)).toHaveLength(1);
});

test("a server crash after the claim: restarted on its file store, the lease lapses, the retry applies once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "outbox-crash-"));
  const store = { kind: "file", path: join(dir, "state.json") } as const;
  const harness = await startHarness({ store, claimLeaseMs: 300 });
  const client = makeClient(harness, { retry: { backoff: { baseMs: 100, capMs: 400 } } });
  await client.start();
  const interrupt = await askForDeployment(client, "t-crash");
  await chaos(harness, [{ point: "after-claim", action: "crash" }]);

  const entry = await client.answer({ threadId: "t-crash", interruptId: interrupt.id, approved: true });
  await harness.server.crashed;
  const restarted = await startMockServer({
    port: harness.server.port,
    store,
    claimLeaseMs: 300,
    toolDurationMs: 5,
  });
  try {
    const final = await settled(client, entry.key, 15_000);
    expect(final.state).toBe("applied");
    const executions = (await (await fetch(`${restarted.url}/__ledger`)).json()) as { executions: unknown[] };
    expect(executions.executions).toHaveLength(1);
  } finally {
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("offline while answering: kept, then sent once when the browser is back, with no action from the person", async () => {
  const harness = await startHarness();
  const online = manualSignal(true);
  let networkUp = true;
  const requests: RequestRecord[] = [];
  const logged = recordingFetch(requests);
  const client = makeClient(harness, {
    // Long backoff: only the online hint can make the retry happen within the test.
    retry: { backoff: { baseMs: 60_000, capMs: 60_000 } },
    deps: {
      online,
      fetch: (input, init) =>
        networkUp ? logged(input, init) : Promise.reject(new TypeError("Failed to fetch")),
    },
  });
  await client.start();
  const interrupt = await askForDeployment(client, "t-offline");

  networkUp = false;
  online.set(false);
  const entry = await client.answer({ threadId: "t-offline", interruptId: interrupt.id, approved: true });
  const waiting = await entryReaches(client, entry.key, ["retry_wait"]);
  expect(waiting.lastError?.kind).toBe("network");
  expect(await ledger(harness)).toHaveLength(0);

  networkUp = true;
  online.set(true);
  const final = await settled(client, entry.key);
  expect(final.state).toBe("applied");
  expect(requests.filter((request) => request.idempotencyKey === entry.key)).toHaveLength(1);
  expect(await ledger(harness)).toHaveLength(1);
});
