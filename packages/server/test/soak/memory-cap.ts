/**
 * RSS under the memory store's caps: TURNS user turns of TURN_KB each (default
 * 1,000 of 1 MB) over HTTP to one in-process server whose agent echoes the
 * turn back, so every run log holds the turn's size. Prints RSS and the bytes
 * of run logs held every 100 turns, and exits non-zero when the logs ever
 * exceed the cap. `CAP_MB` sets the identity's cap (default 32, the store's);
 * `STORE=file` runs the file store instead (its time per 100 turns is the figure there).
 *
 *   npx tsx --conditions=@agui-outbox/source --expose-gc packages/server/test/soak/memory-cap.ts
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgUiEvent } from "@agui-outbox/core/protocol";
import { type AgentHandler, createContractServer, createFileStore, MemoryStore } from "../../src/index";

const turns = Number(process.env.TURNS ?? 1000);
const turnBytes = Number(process.env.TURN_KB ?? 1024) * 1024;
const capBytes = Number(process.env.CAP_MB ?? 32) * 1024 * 1024;

const echo: AgentHandler = async function* ({ input }) {
  const last = input.messages.at(-1);
  const text = typeof last?.content === "string" ? last.content : "";
  yield { type: "TEXT_MESSAGE_START", messageId: `m-${input.runId}`, role: "assistant" } as AgUiEvent;
  yield { type: "TEXT_MESSAGE_CONTENT", messageId: `m-${input.runId}`, delta: text } as AgUiEvent;
  yield { type: "TEXT_MESSAGE_END", messageId: `m-${input.runId}` } as AgUiEvent;
  yield { type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId } as AgUiEvent;
};

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const gc = (globalThis as { gc?: () => void }).gc;
const rss = () => {
  gc?.();
  return process.memoryUsage().rss;
};
const heap = () => process.memoryUsage().heapUsed;

const limits = { maxBytesPerIdentity: capBytes, maxBytes: capBytes * 8 };
const store =
  process.env.STORE === "file"
    ? createFileStore({ path: join(mkdtempSync(join(tmpdir(), "memory-cap-")), "state.json"), limits })
    : new MemoryStore({ limits });
const contract = createContractServer({
  store,
  agent: echo,
  sweepIntervalMs: 0,
  maxBodyBytes: turnBytes * 2,
});
const http = createServer(contract.handler());
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/agent`;
const content = "x".repeat(turnBytes);
const started = Date.now();
const before = rss();
let worst = 0;
console.log(`turns=${turns} turn=${turnBytes / 1024} KB cap=${mb(capBytes)} MB rss before=${mb(before)} MB`);
for (let turn = 1; turn <= turns; turn += 1) {
  const runId = `r${turn}`;
  const body = { threadId: `t${turn % 10}`, runId, messages: [{ id: `u${turn}`, role: "user", content }] };
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  await response.text();
  worst = Math.max(worst, store.logBytes);
  if (turn % 100 === 0) {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const now = rss();
    console.log(
      `turn ${turn}: rss=${mb(now)} MB heap=${mb(heap())} MB logs=${mb(store.logBytes)} MB (${seconds} s)`,
    );
  }
}
console.log(
  `after: rss=${mb(rss())} MB heap=${mb(heap())} MB gc=${gc !== undefined}, most log bytes held=${mb(worst)} MB, cap ${mb(capBytes)} MB`,
);
await contract.close();
http.closeAllConnections();
http.close();
// One turn may be over the cap while it runs: a running run is never evicted.
process.exit(worst <= capBytes + turnBytes * 1.1 ? 0 : 1);
