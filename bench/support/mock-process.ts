import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { MockServerOptions } from "@agui-outbox/mock-server";
import type { MockChildCommand } from "./mock-child.ts";

export interface MockProcess {
  readonly url: string;
  /** Keeps a copy of the server's state as it is now. */
  snapshot(): Promise<void>;
  /** Replaces the server with a fresh one on the same port, started from the snapshot. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts bench/support/mock-child.ts under tsx and waits for its URL. */
export async function startMockProcess(
  options: Omit<MockServerOptions, "port" | "store"> = {},
): Promise<MockProcess> {
  const script = fileURLToPath(new URL("./mock-child.ts", import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=@agui-outbox/source", "--import", "tsx", script],
    {
      env: { ...process.env, BENCH_MOCK_OPTIONS: JSON.stringify(options) },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
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
  const ask = (command: MockChildCommand) =>
    new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the mock process exited with ${code}`));
      child.once("exit", onExit);
      child.once("message", () => {
        child.off("exit", onExit);
        resolve();
      });
      child.send(command);
    });
  return {
    url,
    snapshot: () => ask({ op: "snapshot" }),
    restore: () => ask({ op: "restore" }),
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
