// `npm run demo`: install what is missing, start the mock server and the demo app,
// print the URL, and stop both on Ctrl-C. `npm run demo -- --peer <agent-framework|
// langgraph|pydantic-ai>` puts a real AG-UI server (e2e/peers/) behind the gateway
// instead of the mock.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensureDependencies } from "./ensure-deps.mjs";
import { startMock } from "./mock-process.mjs";
import { parseDemoArgs, startPeerBehindGateway } from "./peer-demo.mjs";
import { superviseUntilReady } from "./supervise.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
const mockPort = process.env.MOCK_PORT ?? "8787";
const demoPort = process.env.DEMO_PORT ?? "5173";

let peer;
try {
  ({ peer } = parseDemoArgs(process.argv.slice(2)));
} catch (error) {
  console.error(`npm run demo -- [--peer <name>]: ${error.message}`);
  process.exit(2);
}

ensureDependencies();
if (peer !== undefined) {
  const setup = spawnSync("bash", [`${repo}e2e/peers/${peer}/setup.sh`], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (setup.status !== 0) {
    console.error(setup.stdout.trim().split("\n").at(-1) ?? `e2e/peers/${peer}/setup.sh failed`);
    process.exit(3);
  }
}

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

// With a peer, the gateway takes the mock's port and the peer keeps the ledger and chaos controls.
const behind =
  peer === undefined
    ? undefined
    : await startPeerBehindGateway(peer, { gatewayPort: mockPort, stdio: "inherit" });
const controlPort = behind?.controlPort ?? mockPort;
const children = [
  ...(behind?.children ?? [startMock("demo", mockPort)]),
  spawn(`${repo}node_modules/.bin/vite`, ["preview", "--config", `${repo}vite.config.ts`], {
    cwd: repo,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, MOCK_PORT: mockPort, CONTROL_PORT: controlPort, DEMO_PORT: demoPort },
  }),
];

await superviseUntilReady(
  children,
  [
    `http://127.0.0.1:${demoPort}/`,
    `http://127.0.0.1:${mockPort}/agent/capabilities`,
    `http://127.0.0.1:${controlPort}/__ledger`,
  ],
  "The demo did not start; see the output above.",
);
console.log(`\n  agui-outbox demo: http://127.0.0.1:${demoPort}/`);
if (behind === undefined) {
  console.log(`  mock server:      http://127.0.0.1:${mockPort}/ (ledger at /__ledger)`);
} else {
  console.log(`  gateway:          http://127.0.0.1:${mockPort}/agent → ${behind.upstream}`);
  console.log(`  ${peer} peer:  ${behind.upstream} (ledger at http://127.0.0.1:${controlPort}/__ledger)`);
}
console.log("  Press Ctrl-C to stop.\n");
