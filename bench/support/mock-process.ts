import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { MockServerOptions } from "@agui-outbox/mock-server";

export interface MockProcess {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts bench/support/mock-child.ts under tsx and waits for its URL. */
export async function startMockProcess(options: Omit<MockServerOptions, "port"> = {}): Promise<MockProcess> {
  const script = fileURLToPath(new URL("./mock-child.ts", import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=@agui-outbox/source", "--import", "tsx", script],
    {
      env: { ...process.env, BENCH_MOCK_OPTIONS: JSON.stringify(options) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stdout = child.stdout;
  if (!stdout) throw new Error("the mock process has no stdout");
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the mock process exited with ${code}`)));
  });
  return {
    url,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
