import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresUnavailable } from "../../server/test/support/postgres";

// The replicas topology of the browser soak (e2e/support/replicas/mock-replicas.ts) as a
// process: a kill through its control route is a replica's death, the replica comes back,
// the other two serve meanwhile, and SIGTERM leaves no Postgres behind.
const unavailable = postgresUnavailable();
if (unavailable !== undefined && !process.env.POSTGRES_UNAVAILABLE)
  console.log(`${unavailable}: the replicas supervisor checks are skipped.`);

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const entry = fileURLToPath(new URL("../../../e2e/support/replicas/mock-replicas.ts", import.meta.url));

interface ReplicaView {
  readonly id: string;
  readonly ready: boolean;
  readonly deaths: number;
}

describe.skipIf(unavailable !== undefined)("the mock as three replicas on Postgres behind a proxy", () => {
  let supervisor: ChildProcess;
  let url = "";
  let postgresDir = "";
  let errors = "";

  beforeAll(async () => {
    supervisor = spawn(process.execPath, ["--conditions=@agui-outbox/source", "--import", "tsx", entry], {
      cwd: repo,
      env: { ...process.env, PORT: "0", MOCK_CLAIM_LEASE_MS: "1000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    supervisor.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      supervisor.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /Postgres :\d+ \((.+)\) behind (http:\/\/127\.0\.0\.1:\d+)\/agent/.exec(out);
        if (ready?.[1] !== undefined && ready[2] !== undefined) {
          postgresDir = ready[1];
          resolve(ready[2]);
        }
      });
      supervisor.once("exit", (code) => reject(new Error(`the supervisor exited (${code}): ${errors}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (supervisor?.exitCode === null) {
      const gone = new Promise((resolve) => supervisor.once("exit", resolve));
      supervisor.kill("SIGTERM");
      await gone;
    }
  });

  const replicas = async () =>
    ((await (await fetch(`${url}/__replicas`)).json()) as { replicas: ReplicaView[] }).replicas;

  test("a killed replica dies, the other two serve every request meanwhile, and it comes back", {
    timeout: 60_000,
  }, async () => {
    const kill = await fetch(`${url}/__kill-replica`, { method: "POST", body: "{}" });
    const { killed } = (await kill.json()) as { killed: string };
    expect(killed).toMatch(/^replica-[123]$/);
    for (let request = 0; request < 6; request += 1)
      expect((await fetch(`${url}/agent/capabilities`)).status).toBe(200);
    for (;;) {
      const view = (await replicas()).find((replica) => replica.id === killed);
      if (view?.ready === true) {
        expect(view.deaths).toBe(1);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await replicas()).map((replica) => replica.deaths).sort()).toEqual([0, 0, 1]);
  });

  test("SIGTERM stops the proxy, the replicas and Postgres, whose folder is removed", {
    timeout: 60_000,
  }, async () => {
    expect(existsSync(postgresDir)).toBe(true);
    const gone = new Promise<number | null>((resolve) => supervisor.once("exit", resolve));
    supervisor.kill("SIGTERM");
    expect(await gone).toBe(0);
    await expect(fetch(`${url}/agent/capabilities`)).rejects.toThrow();
    expect(existsSync(postgresDir)).toBe(false);
  });
});
