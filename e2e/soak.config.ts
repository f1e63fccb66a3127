// `npm run soak`: the chaos soak alone, SOAK_RUNS schedules (default 20), against the
// same mock server and demo as the end-to-end suite (the short-TTL pair is not started).
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { postgresUnavailable } from "../packages/server/test/support/postgres.ts";
import base, { demoPort, mockPort } from "./playwright.config.ts";

const [mockServer, demoServer] = Array.isArray(base.webServer) ? base.webServer : [];
if (mockServer === undefined || demoServer === undefined)
  throw new Error("e2e/playwright.config.ts has no web servers");

// SOAK_TOPOLOGY=replicas: "the mock" is three replicas on one real Postgres behind a
// round-robin proxy (e2e/support/replicas/mock-replicas.ts), and replica kills join the faults.
// Its schedules are the contract's only: the af-* emulations are one process on memory by design.
const repo = fileURLToPath(new URL("..", import.meta.url));
const replicas = process.env.SOAK_TOPOLOGY === "replicas";
if (process.env.SOAK_TOPOLOGY !== undefined && !replicas)
  throw new Error(`SOAK_TOPOLOGY must be "replicas" or unset, not "${process.env.SOAK_TOPOLOGY}"`);
const unavailable = replicas ? postgresUnavailable() : undefined;
if (unavailable !== undefined) {
  console.error(`soak: ${unavailable}: SOAK_TOPOLOGY=replicas cannot run here.`);
  process.exit(1);
}
const replicaServer = {
  ...mockServer,
  command: `${repo}node_modules/.bin/tsx --conditions=@agui-outbox/source ${repo}e2e/support/replicas/mock-replicas.ts`,
  env: {
    PORT: String(mockPort),
    // The replicas take free ports of their own (MOCK_REPLICA_PORTS, inherited, pins them).
    MOCK_CLAIM_LEASE_MS: "1000",
  },
  // The group gets SIGTERM (not Playwright's SIGKILL), so Postgres is stopped and its folder removed.
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
  timeout: 120_000,
};

export default defineConfig({
  ...base,
  testMatch: "soak/**/*.spec.ts",
  reporter: [["list"]],
  // One long test: a trace of the whole soak would be hundreds of megabytes.
  // A step that never ends (a click on a card that never offers its button, a reload that
  // never loads) fails its schedule with the step named, instead of holding the soak for hours.
  use: { ...base.use, trace: "off", actionTimeout: 30_000, navigationTimeout: 30_000 },
  projects: [
    {
      name: "soak",
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${demoPort}` },
      metadata: {
        mockUrl: `http://127.0.0.1:${mockPort}`,
        soakRuns: 20,
        soakRandomSeed: true,
        ...(replicas ? { topology: "replicas" } : {}),
      },
    },
  ],
  // Claims left by a crashed instance lapse in one second, so crash schedules stay short.
  webServer: [
    replicas ? replicaServer : { ...mockServer, env: { ...mockServer.env, MOCK_CLAIM_LEASE_MS: "1000" } },
    demoServer,
  ],
});
