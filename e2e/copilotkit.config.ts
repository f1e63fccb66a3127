import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "./chromium.ts";
import { portsFromEnv } from "./support/free-ports.ts";

// The CopilotKit example (examples/copilotkit) on DurableHttpAgent, against a mock server
// of its own. Its dependencies are installed apart from the workspace
// (scripts/ensure-example.mjs); where they are missing the specs skip with the reason.
const repo = fileURLToPath(new URL("..", import.meta.url));
// The variables' ports, or free ones picked once in the runner (the workers inherit them).
const ports = portsFromEnv(["E2E_COPILOTKIT_MOCK_PORT", "E2E_COPILOTKIT_PORT"]);
export const copilotkitMockPort = ports.E2E_COPILOTKIT_MOCK_PORT;
export const copilotkitAppPort = ports.E2E_COPILOTKIT_PORT;
export const copilotkitUnavailable =
  process.env.COPILOTKIT_UNAVAILABLE ??
  (existsSync(`${repo}examples/copilotkit/node_modules/@copilotkit/react-core/package.json`)
    ? undefined
    : "CopilotKit example not installed: run npm run example:copilotkit");
const config = `${repo}examples/copilotkit/vite.config.ts`;
const serverEnv = { MOCK_PORT: String(copilotkitMockPort), EXAMPLE_PORT: String(copilotkitAppPort) };

export default defineConfig({
  testDir: "copilotkit",
  testMatch: "**/*.spec.ts",
  outputDir: `${repo}.test-output/playwright-copilotkit`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${copilotkitAppPort}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
  },
  projects: [
    {
      name: "copilotkit",
      use: { browserName: "chromium" },
      metadata: { mockUrl: `http://127.0.0.1:${copilotkitMockPort}` },
    },
  ],
  webServer: copilotkitUnavailable
    ? []
    : [
        {
          command: `${repo}node_modules/.bin/tsx --conditions=@agui-outbox/source ${repo}packages/mock-server/src/cli.ts`,
          url: `http://127.0.0.1:${copilotkitMockPort}/agent/capabilities`,
          env: { PORT: String(copilotkitMockPort) },
          reuseExistingServer: false,
          timeout: 60_000,
        },
        {
          command: `${repo}node_modules/.bin/vite build --config ${config} --logLevel error && ${repo}node_modules/.bin/vite preview --config ${config}`,
          url: `http://127.0.0.1:${copilotkitAppPort}/`,
          env: serverEnv,
          reuseExistingServer: false,
          timeout: 120_000,
        },
      ],
});
