import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { askToDeploy } from "@agui-outbox/conformance";
import { MetadataKey } from "@agui-outbox/core/protocol";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningTarget, startMockTarget } from "../../mock-server/test/interop/interop-targets";

// The command as a person runs it: a process on a free port (--port 0) that prints where it
// listens, in front of the mock's Agent Framework emulation, and stops on SIGTERM.
const repo = fileURLToPath(new URL("../../../", import.meta.url));

let upstream: RunningTarget;
beforeAll(async () => {
  upstream = await startMockTarget("af-lifecycle");
});
afterAll(async () => {
  await upstream?.close();
});

test("npx agui-outbox-gateway --upstream <url> --port 0 serves the contract and stops on SIGTERM", {
  timeout: 60_000,
}, async () => {
  const child = spawn(
    `${repo}node_modules/.bin/tsx`,
    [
      "--conditions=@agui-outbox/source",
      `${repo}packages/gateway/src/cli.ts`,
      "--upstream",
      `${upstream.url}/agent`,
      "--port",
      "0",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    let printed = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        printed += chunk.toString("utf8");
        const found = /gateway: (http:\/\/[^/]+)\/agent/.exec(printed);
        if (found?.[1] !== undefined) resolve(found[1]);
      });
      child.once("exit", (code) => reject(new Error(`the gateway exited with ${code}: ${printed}`)));
    });
    const capabilities = (await (await fetch(`${url}/agent/capabilities`)).json()) as { custom?: object };
    expect(capabilities.custom).toHaveProperty(MetadataKey.recovery);
    const asked = await askToDeploy({ url, ledger: upstream.ledger, chaos: upstream.chaos }, "cli");
    expect(asked.reply.frames.every((frame) => frame.id !== undefined)).toBe(true);
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

test("a bad flag exits 2 with the usage", { timeout: 60_000 }, async () => {
  const child = spawn(
    `${repo}node_modules/.bin/tsx`,
    ["--conditions=@agui-outbox/source", `${repo}packages/gateway/src/cli.ts`, "--port", "1"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const [code] = await once(child, "exit");
  expect(code).toBe(2);
  expect(stderr).toContain("--upstream is required");
  expect(stderr).toContain("usage: agui-outbox-gateway");
});
