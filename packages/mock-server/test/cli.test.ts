import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { tempStatePath } from "./support/harness";

const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/** Runs `npm run mock`'s entry point and collects the lines it prints. */
function runCli(env: Record<string, string>) {
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
  const child = spawn(process.execPath, [tsx, "--conditions=@agui-outbox/source", cli], {
    env: { ...process.env, ...env },
    stdio: "pipe",
  });
  children.push(child);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const until = (predicate: (lines: string[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (predicate(lines)) {
          waiters.delete(check);
          resolve();
        }
      };
      waiters.add(check);
      check();
    });
  return { child, lines, until };
}

test("the CLI restarts the server after a crash fault, and the file store keeps the ledger", async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const cli = runCli({
    PORT: String(port),
    MOCK_STORE: "file",
    MOCK_DATA: tempStatePath(),
    MOCK_TOOL_DURATION_MS: "1",
  });
  const started = (lines: string[]) => lines.filter((line) => line.includes(`on ${base}/agent`)).length;
  await cli.until((lines) => started(lines) === 1);
  expect(cli.lines[0]).toContain("fixed mode");
  expect(cli.lines[0]).toContain("file store");

  const ask = await fetch(`${base}/agent`, {
    method: "POST",
    body: JSON.stringify({
      threadId: "t",
      runId: "r1",
      messages: [{ id: "m", role: "user", content: "deploy" }],
    }),
  });
  const interruptId = /"id":"(call_[^"]+)"/.exec(await ask.text())?.[1] ?? "";
  await fetch(`${base}/agent`, {
    method: "POST",
    headers: { "idempotency-key": "k" },
    body: JSON.stringify({
      threadId: "t",
      runId: "r2",
      messages: [],
      resume: [{ interruptId, status: "resolved", payload: { approved: true } }],
    }),
  }).then((response) => response.text());
  await fetch(`${base}/__chaos`, {
    method: "POST",
    body: JSON.stringify({ faults: [{ point: "before-response", action: "crash" }] }),
  });
  await fetch(`${base}/agent`, { method: "POST", body: '{"threadId":"t","runId":"h","messages":[]}' }).catch(
    () => undefined,
  );
  await cli.until((lines) => started(lines) === 2);
  expect(cli.lines.some((line) => line.includes("restarting after a crash"))).toBe(true);

  const ledger = (await (await fetch(`${base}/__ledger`)).json()) as { executions: unknown[] };
  expect(ledger.executions).toHaveLength(1);
  expect(cli.child.exitCode).toBeNull();
});
