import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { IDBFactory } from "fake-indexeddb";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  type BackgroundRunRecord,
  type BackgroundRunsPlugin,
  backgroundRuns,
} from "../../background/src/index";
import { MemoryStore as OutboxMemoryStore } from "../../core/src/outbox/memory-store";
import { createIsolatedClient } from "../../core/testing/isolated-client";
import { type ContractServer, createContractServer, MemoryStore } from "../src/index";
import { type Ledger, memoryLedger, scriptedDeployAgent } from "./support/scripted-agent";
import { listFaults, scriptedBackgroundAgent } from "./support/scripted-background";

// The SDK's own background client against the library, over real HTTP: the
// reference report's failure (a submission that fails after the tool ran, then
// a re-poll with the held token), with the page reloaded in between.
let contract: ContractServer;
let http: Server;
let url: string;
const ledger: Ledger = memoryLedger();
const faults = listFaults();

beforeAll(async () => {
  const { agent, tools } = scriptedDeployAgent(ledger);
  contract = createContractServer({
    store: new MemoryStore(),
    agent,
    tools,
    background: scriptedBackgroundAgent(faults),
    sweepIntervalMs: 0,
  });
  http = createServer(contract.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await contract.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

function reaches(
  background: BackgroundRunsPlugin,
  runId: string,
  verdicts: readonly string[],
): Promise<BackgroundRunRecord> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const run = background.runs.getState().runs.find((candidate) => candidate.runId === runId);
      if (run && verdicts.includes(run.verdict)) {
        stop();
        clearTimeout(timer);
        resolve(run);
      }
    };
    const stop = background.runs.subscribe(check);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the background run never reached ${verdicts.join(" or ")}`));
    }, 15_000);
    check();
  });
}

test("the SDK's background client on the library: a failed submission, a reload, the stored result resubmitted; the tool ran once", async () => {
  const indexedDB = new IDBFactory();
  const storage = new OutboxMemoryStore();
  const open = (background: BackgroundRunsPlugin) =>
    createIsolatedClient({
      url: `${url}/agent`,
      namespace: "user-1",
      dbName: "outbox-test",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      storage,
      plugins: [background],
      indexedDB,
    });
  const background = backgroundRuns();
  const first = open(background);
  await first.start();
  faults.arm("t-bg", "background-submit", "status");
  const run = await background.start({ threadId: "t-bg", text: "please deploy to prod" });
  await reaches(background, run.runId, ["retry_wait"]);
  expect(await ledger.entries("t-bg")).toHaveLength(1);
  first.dispose();

  const resumed = backgroundRuns();
  const next = open(resumed);
  try {
    await next.start();
    const final = await reaches(resumed, run.runId, ["completed", "lost", "needs_user"]);
    expect(final.verdict).toBe("completed");
    const messages = next.thread("t-bg").store.getState().messages;
    expect(messages.some((m) => m.role === "assistant" && m.content === "Done: deployed to prod")).toBe(true);
    expect(await ledger.entries("t-bg")).toHaveLength(1);
  } finally {
    next.dispose();
  }
});
