// `npm run example:copilotkit`: install what is missing (the workspace, then the
// example's own dependencies), start the mock server and the CopilotKit example, print
// the URL, and stop both on Ctrl-C.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensureDependencies } from "./ensure-deps.mjs";
import { ensureCopilotKitExample } from "./ensure-example.mjs";
import { startMock } from "./mock-process.mjs";
import { superviseUntilReady } from "./supervise.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
const mockPort = process.env.MOCK_PORT ?? "8787";
const examplePort = process.env.EXAMPLE_PORT ?? "5174";
const config = `${repo}examples/copilotkit/vite.config.ts`;
const env = { ...process.env, MOCK_PORT: mockPort, EXAMPLE_PORT: examplePort };

ensureDependencies();
const unavailable = ensureCopilotKitExample();
if (unavailable) {
  console.error(unavailable);
  process.exit(1);
}

console.log("Building the CopilotKit example…");
execFileSync(`${repo}node_modules/.bin/vite`, ["build", "--config", config, "--logLevel", "error"], {
  cwd: repo,
  stdio: "inherit",
  env,
});

const children = [
  startMock("copilotkit", mockPort, env),
  spawn(`${repo}node_modules/.bin/vite`, ["preview", "--config", config], {
    cwd: repo,
    stdio: ["ignore", "ignore", "inherit"],
    env,
  }),
];

await superviseUntilReady(
  children,
  [`http://127.0.0.1:${examplePort}/`, `http://127.0.0.1:${mockPort}/agent/capabilities`],
  "The example did not start; see the output above.",
);
console.log(`\n  CopilotKit example: http://127.0.0.1:${examplePort}/`);
console.log(`  mock server:        http://127.0.0.1:${mockPort}/ (ledger at /__ledger)`);
console.log("  Press Ctrl-C to stop.\n");
