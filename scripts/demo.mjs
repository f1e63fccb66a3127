// `npm run demo`: install what is missing, start the mock server and the demo app,
// print the URL, and stop both on Ctrl-C.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensureDependencies } from "./ensure-deps.mjs";
import { startMock } from "./mock-process.mjs";
import { superviseUntilReady } from "./supervise.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
const mockPort = process.env.MOCK_PORT ?? "8787";
const demoPort = process.env.DEMO_PORT ?? "5173";

ensureDependencies();

// The demo is served as a production build: the dev server's React refresh
// preamble is an inline script, which the page's Content-Security-Policy refuses.
console.log("Building the demo…");
execFileSync(
  `${repo}node_modules/.bin/vite`,
  ["build", "--config", `${repo}vite.config.ts`, "--logLevel", "warn"],
  {
    cwd: repo,
    stdio: "inherit",
    env: { ...process.env, MOCK_PORT: mockPort, DEMO_PORT: demoPort },
  },
);

const children = [
  startMock("demo", mockPort),
  spawn(`${repo}node_modules/.bin/vite`, ["preview", "--config", `${repo}vite.config.ts`], {
    cwd: repo,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, MOCK_PORT: mockPort, DEMO_PORT: demoPort },
  }),
];

await superviseUntilReady(
  children,
  [`http://127.0.0.1:${demoPort}/`, `http://127.0.0.1:${mockPort}/agent/capabilities`],
  "The demo did not start; see the output above.",
);
console.log(`\n  agui-outbox demo: http://127.0.0.1:${demoPort}/`);
console.log(`  mock server:      http://127.0.0.1:${mockPort}/ (ledger at /__ledger)`);
console.log("  Press Ctrl-C to stop.\n");
