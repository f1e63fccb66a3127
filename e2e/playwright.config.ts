import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "./chromium.ts";
import { portsFromEnv } from "./support/free-ports.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
// Each server's port from its variable, or a free one: two runs on one machine (and a
// running `npm run demo`) never meet. Picked once, in the runner; the workers inherit them.
const ports = portsFromEnv([
  "E2E_MOCK_PORT",
  "E2E_DEMO_PORT",
  "E2E_TTL_MOCK_PORT",
  "E2E_TTL_DEMO_PORT",
  "E2E_AF_PORT",
  "E2E_AF_DEMO_PORT",
  "E2E_PYDANTIC_AI_PORT",
  "E2E_PYDANTIC_AI_DEMO_PORT",
  "E2E_LANGGRAPH_PORT",
  "E2E_LANGGRAPH_DEMO_PORT",
]);
export const mockPort = ports.E2E_MOCK_PORT;
export const demoPort = ports.E2E_DEMO_PORT;
// A second mock and demo whose interrupts expire in seconds, for the expiry scenario only.
export const ttlMockPort = ports.E2E_TTL_MOCK_PORT;
export const ttlDemoPort = ports.E2E_TTL_DEMO_PORT;
export const shortInterruptTtlMs = 4000;
const expirySpec = "recovery/expired.spec.ts";
// The real Agent Framework server (e2e/peers/agent-framework) behind a third preview of
// the demo. `npm test` installs its Python environment first; where that cannot be done
// the spec skips with the reason, and neither server is started.
export const afPeerPort = ports.E2E_AF_PORT;
export const afDemoPort = ports.E2E_AF_DEMO_PORT;
const peerSpec = "peers/agent-framework.spec.ts";
const peerPython = `${repo}e2e/peers/agent-framework/.venv/bin/python`;
export const afPeerUnavailable =
  process.env.AF_PEER_UNAVAILABLE ??
  (existsSync(peerPython)
    ? undefined
    : "Agent Framework peer not installed: run e2e/peers/agent-framework/setup.sh");
const peerServers = afPeerUnavailable
  ? []
  : [
      {
        command: `${peerPython} ${repo}e2e/peers/agent-framework/app.py`,
        url: `http://127.0.0.1:${afPeerPort}/__mode`,
        env: { PORT: String(afPeerPort), PEER_LEDGER: `${repo}.test-output/af-peer/ledger.jsonl` },
        reuseExistingServer: false,
        timeout: 60_000,
      },
      {
        command: `${repo}node_modules/.bin/vite preview --config ${repo}vite.config.ts`,
        url: `http://127.0.0.1:${afDemoPort}/`,
        env: { DEMO_PORT: String(afDemoPort), MOCK_PORT: String(afPeerPort) },
        reuseExistingServer: false,
        timeout: 60_000,
      },
    ];
// The real pydantic-ai AG-UI server (e2e/peers/pydantic-ai, history held on the server)
// behind its own preview of the demo, skipped with the reason where it is not installed.
export const pydanticAiPeerPort = ports.E2E_PYDANTIC_AI_PORT;
export const pydanticAiDemoPort = ports.E2E_PYDANTIC_AI_DEMO_PORT;
const pydanticAiSpec = "peers/pydantic-ai.spec.ts";
const pydanticAiPython = `${repo}e2e/peers/pydantic-ai/.venv/bin/python`;
export const pydanticAiPeerUnavailable =
  process.env.PYDANTIC_AI_PEER_UNAVAILABLE ??
  (existsSync(pydanticAiPython)
    ? undefined
    : "pydantic-ai peer not installed: run e2e/peers/pydantic-ai/setup.sh");
const pydanticAiServers = pydanticAiPeerUnavailable
  ? []
  : [
      {
        command: `${pydanticAiPython} ${repo}e2e/peers/pydantic-ai/app.py`,
        url: `http://127.0.0.1:${pydanticAiPeerPort}/__mode`,
        env: {
          PORT: String(pydanticAiPeerPort),
          PEER_LEDGER: `${repo}.test-output/pydantic-ai-peer/ledger.jsonl`,
        },
        reuseExistingServer: false,
        timeout: 60_000,
      },
      {
        command: `${repo}node_modules/.bin/vite preview --config ${repo}vite.config.ts`,
        url: `http://127.0.0.1:${pydanticAiDemoPort}/`,
        env: { DEMO_PORT: String(pydanticAiDemoPort), MOCK_PORT: String(pydanticAiPeerPort) },
        reuseExistingServer: false,
        timeout: 60_000,
      },
    ];
// The real LangGraph server (e2e/peers/langgraph) behind a preview of the demo of its own,
// skipped with the reason where its Python environment could not be installed.
export const langGraphPeerPort = ports.E2E_LANGGRAPH_PORT;
export const langGraphDemoPort = ports.E2E_LANGGRAPH_DEMO_PORT;
const langGraphSpec = "peers/langgraph.spec.ts";
const langGraphPython = `${repo}e2e/peers/langgraph/.venv/bin/python`;
export const langGraphPeerUnavailable =
  process.env.LANGGRAPH_PEER_UNAVAILABLE ??
  (existsSync(langGraphPython)
    ? undefined
    : "LangGraph peer not installed: run e2e/peers/langgraph/setup.sh");
const langGraphServers = langGraphPeerUnavailable
  ? []
  : [
      {
        command: `${langGraphPython} ${repo}e2e/peers/langgraph/app.py`,
        url: `http://127.0.0.1:${langGraphPeerPort}/__mode`,
        env: {
          PORT: String(langGraphPeerPort),
          PEER_LEDGER: `${repo}.test-output/langgraph-peer/ledger.jsonl`,
        },
        reuseExistingServer: false,
        timeout: 60_000,
      },
      {
        command: `${repo}node_modules/.bin/vite preview --config ${repo}vite.config.ts`,
        url: `http://127.0.0.1:${langGraphDemoPort}/`,
        env: { DEMO_PORT: String(langGraphDemoPort), MOCK_PORT: String(langGraphPeerPort) },
        reuseExistingServer: false,
        timeout: 60_000,
      },
    ];

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: `${repo}.test-output/playwright-artifacts`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // A missing baseline fails instead of being written: only `--update-snapshots` writes one.
  updateSnapshots: "none",
  expect: {
    // Pictures of this machine kind are identical run to run (0 pixels in three runs): a
    // tight tolerance, so one changed word or a border colour fails (a 1% ratio let a
    // changed line through). `threshold` is pixelmatch's per-pixel colour distance.
    toHaveScreenshot: {
      animations: "disabled",
      caret: "hide",
      scale: "css",
      threshold: 0.05,
      maxDiffPixels: 8,
    },
  },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${demoPort}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
  },
  projects: [
    {
      name: "chromium",
      // copilotkit/: the CopilotKit example's specs, run by e2e/copilotkit.config.ts.
      testIgnore: [expirySpec, peerSpec, pydanticAiSpec, langGraphSpec, "copilotkit/**"],
      use: { browserName: "chromium" },
      metadata: { mockUrl: `http://127.0.0.1:${mockPort}` },
    },
    {
      name: "short-ttl",
      testMatch: expirySpec,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${ttlDemoPort}` },
      metadata: { mockUrl: `http://127.0.0.1:${ttlMockPort}` },
    },
    {
      name: "agent-framework",
      testMatch: peerSpec,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${afDemoPort}` },
    },
    {
      name: "pydantic-ai",
      testMatch: pydanticAiSpec,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${pydanticAiDemoPort}` },
    },
    {
      name: "langgraph",
      testMatch: langGraphSpec,
      use: { browserName: "chromium", baseURL: `http://127.0.0.1:${langGraphDemoPort}` },
    },
  ],
  webServer: [
    {
      command: `${repo}node_modules/.bin/tsx --conditions=@agui-outbox/source ${repo}packages/mock-server/src/cli.ts`,
      url: `http://127.0.0.1:${mockPort}/agent/capabilities`,
      env: {
        PORT: String(mockPort),
        MOCK_STORE: "file",
        MOCK_DATA: `${repo}.test-output/e2e-mock/state.json`,
        // A claim left by a crashed instance lapses in seconds, so a crash scenario
        // recovers quickly; a live run keeps its claim however long it pauses.
        MOCK_CLAIM_LEASE_MS: "3000",
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The production build under `vite preview`: the dev server's inline React
      // refresh preamble would break the page's strict Content-Security-Policy.
      command: `${repo}node_modules/.bin/vite build --config ${repo}vite.config.ts --logLevel warn && ${repo}node_modules/.bin/vite preview --config ${repo}vite.config.ts`,
      url: `http://127.0.0.1:${demoPort}/`,
      env: { DEMO_PORT: String(demoPort), MOCK_PORT: String(mockPort) },
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      command: `${repo}node_modules/.bin/tsx --conditions=@agui-outbox/source ${repo}packages/mock-server/src/cli.ts`,
      url: `http://127.0.0.1:${ttlMockPort}/agent/capabilities`,
      env: { PORT: String(ttlMockPort), MOCK_INTERRUPT_TTL_MS: String(shortInterruptTtlMs) },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The build above is already there: only a second preview, proxied to the second mock.
      command: `${repo}node_modules/.bin/vite preview --config ${repo}vite.config.ts`,
      url: `http://127.0.0.1:${ttlDemoPort}/`,
      env: { DEMO_PORT: String(ttlDemoPort), MOCK_PORT: String(ttlMockPort) },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    ...peerServers,
    ...pydanticAiServers,
    ...langGraphServers,
  ],
});
