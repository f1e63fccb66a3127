import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "vitest";
import {
  askToDeploy,
  gatedSleep,
  ledger,
  postStream,
  resumeBody,
  start,
  tempStatePath,
} from "./support/harness";

test("the fixed mode's claims and logs are the library's document, saved under `contract` in the one state file", async () => {
  const path = tempStatePath();
  const server = await start({ store: { kind: "file", path } });
  const { interrupt } = await askToDeploy(server, "t-doc");
  const saved = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  expect(Object.keys(saved).sort()).toEqual(["contract", "ledger", "occurrences", "threads", "version"]);
  const contract = saved.contract as { occurrences: Record<string, { interruptId: string; state: string }> };
  expect(Object.values(contract.occurrences)).toMatchObject([
    { interruptId: interrupt.id, state: "PENDING" },
  ]);
});

test("a state file from before keeps its threads and ledger; the old engine's claims and logs are dropped", async () => {
  const path = tempStatePath();
  const ledger = [
    { threadId: "t-old", toolCallId: "c1", name: "deploy_change", args: { target: "prod" }, at: "x" },
  ];
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      threads: { "t-old": { threadId: "t-old", messages: [], createdAt: 1 } },
      occurrences: {},
      idempotency: { k: { key: "k" } },
      runs: { r: { runId: "r" } },
      ledger,
      background: {},
      backgroundTokens: {},
    }),
  );
  const server = await start({ store: { kind: "file", path } });
  const response = await fetch(`${server.url}/__ledger`);
  expect(((await response.json()) as { executions: unknown[] }).executions).toEqual(ledger);
  expect((await fetch(`${server.url}/agent/runs/r`)).status).toBe(404);
  await askToDeploy(server, "t-new");
  const saved = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  expect(saved).not.toHaveProperty("runs");
  expect(saved).not.toHaveProperty("idempotency");
  expect(saved.threads).toHaveProperty("t-old");
});

test("/__reset cuts the stream of a run still in flight, and nothing it did afterwards is kept", async () => {
  const gate = gatedSleep();
  const server = await start({ sleep: gate.sleep });
  const { interrupt } = await askToDeploy(server, "t-reset-live");
  const { reader } = await postStream(
    server,
    resumeBody({
      threadId: "t-reset-live",
      runId: "run-reset-live",
      interruptId: interrupt.id,
      key: "k-reset",
      payload: { approved: true },
    }),
    { "idempotency-key": "k-reset" },
  );
  await reader.waitFor(() => gate.pending === 1);
  expect((await fetch(`${server.url}/__reset`, { method: "POST" })).status).toBe(200);
  expect(await reader.done).toBe("error");
  gate.releaseAll();
  expect(await ledger(server)).toHaveLength(0);
  expect((await fetch(`${server.url}/agent/runs/run-reset-live`)).status).toBe(404);
});
