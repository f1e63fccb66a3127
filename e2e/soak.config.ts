// `npm run soak`: the chaos soak alone, SOAK_RUNS schedules (default 20), against the
// same mock server and demo as the end-to-end suite (the short-TTL pair is not started).
import { defineConfig } from "@playwright/test";
import base, { demoPort, mockPort } from "./playwright.config.ts";

const [mockServer, demoServer] = Array.isArray(base.webServer) ? base.webServer : [];
if (mockServer === undefined || demoServer === undefined)
  throw new Error("e2e/playwright.config.ts has no web servers");

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
      metadata: { mockUrl: `http://127.0.0.1:${mockPort}`, soakRuns: 20, soakRandomSeed: true },
    },
  ],
  // Claims left by a crashed instance lapse in one second, so crash schedules stay short.
  webServer: [{ ...mockServer, env: { ...mockServer.env, MOCK_CLAIM_LEASE_MS: "1000" } }, demoServer],
});
