// `npm test`: every check and every test, then one plain summary line built from the
// runners' JSON reports: `N passed, N failed, N skipped`. Exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./ensure-chromium.mjs";
import { ensureDependencies } from "./ensure-deps.mjs";
import { ensureCopilotKitExample } from "./ensure-example.mjs";
import { ensureAgentFrameworkPeer, ensureLangGraphPeer, ensurePydanticAiPeer } from "./ensure-peer.mjs";
import { ensurePostgres } from "./ensure-postgres.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
const out = `${repo}.test-output`;
const bin = (name) => `${repo}node_modules/.bin/${name}`;

ensureDependencies();
ensureChromium();
// Where the real Agent Framework peer cannot be installed, its tests skip with this reason.
const peerUnavailable = ensureAgentFrameworkPeer();
if (peerUnavailable) {
  console.log(`${peerUnavailable}: its interop tests are skipped.`);
  process.env.AF_PEER_UNAVAILABLE = peerUnavailable;
}
// Likewise the real LangGraph peer (ag-ui-langgraph).
const langGraphUnavailable = ensureLangGraphPeer();
if (langGraphUnavailable) {
  console.log(`${langGraphUnavailable}: its interop tests are skipped.`);
  process.env.LANGGRAPH_PEER_UNAVAILABLE = langGraphUnavailable;
}
const pydanticAiUnavailable = ensurePydanticAiPeer();
if (pydanticAiUnavailable) {
  console.log(`${pydanticAiUnavailable}: its interop tests are skipped.`);
  process.env.PYDANTIC_AI_PEER_UNAVAILABLE = pydanticAiUnavailable;
}
// Where Postgres cannot be started, the server library's Postgres and replica tests skip with this reason.
const postgresUnavailable = ensurePostgres();
if (postgresUnavailable) {
  console.log(
    `${postgresUnavailable}: the Postgres store and replica tests (the library's and the mock's) are skipped.`,
  );
  process.env.POSTGRES_UNAVAILABLE = postgresUnavailable;
} else {
  console.log(
    "Postgres available: the Postgres store and replica tests (the library's and the mock's) run on a real server.",
  );
}
// The CopilotKit example installs apart from the workspace; without it its specs skip.
const copilotkitUnavailable = ensureCopilotKitExample();
if (copilotkitUnavailable) {
  console.log(`${copilotkitUnavailable}: its end-to-end tests are skipped.`);
  process.env.COPILOTKIT_UNAVAILABLE = copilotkitUnavailable;
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: repo, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** A check that is not a test runner (type check, lint) counts as one test. */
function check(label, command, args) {
  const ok = run(label, command, args) === 0;
  totals[ok ? "passed" : "failed"] += 1;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

check("type check (tsc -b)", bin("tsc"), ["-b"]);
check("type check of the core's tests", bin("tsc"), ["-p", "packages/core/tsconfig.test.json"]);
check("type check of the background's tests", bin("tsc"), ["-p", "packages/background/tsconfig.test.json"]);
check("type check of the agent's tests", bin("tsc"), ["-p", "packages/agent/tsconfig.test.json"]);
check("lint (biome)", bin("biome"), ["check", "."]);

// The packages as an app installs them: packed, installed outside the workspace,
// built with Vite on React 18 and 19, answered in Chromium (scripts/consumer-test.mjs).
run("consumer tests (packed tarballs in fresh apps)", "node", [`${repo}scripts/consumer-test.mjs`]);
const consumer = readJson(`${out}/consumer.json`);
totals.passed += consumer?.passed ?? 0;
totals.failed += consumer ? consumer.failed : 1;

const vitestStatus = run("unit, contract and browser tests (vitest)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${out}/vitest.json`,
]);
const vitest = readJson(`${out}/vitest.json`);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
  // Unhandled errors fail the run without failing a test: count them once.
  if (vitestStatus !== 0 && vitest.numFailedTests === 0) totals.failed += 1;
} else {
  totals.failed += 1;
}

const playwrightStatus = run(
  "end-to-end tests (playwright)",
  bin("playwright"),
  ["test", "-c", "e2e/playwright.config.ts"],
  { PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json` },
);
const playwright = readJson(`${out}/playwright.json`);
if (playwright?.stats) {
  totals.passed += playwright.stats.expected + playwright.stats.flaky;
  totals.failed += playwright.stats.unexpected;
  totals.skipped += playwright.stats.skipped;
  if (playwrightStatus !== 0 && playwright.stats.unexpected === 0) totals.failed += 1;
} else {
  totals.failed += 1;
}

if (!copilotkitUnavailable) {
  check("type check of the CopilotKit example", bin("tsc"), ["-p", "examples/copilotkit/tsconfig.json"]);
}
const copilotkitStatus = run(
  "end-to-end tests of the CopilotKit example (playwright)",
  bin("playwright"),
  ["test", "-c", "e2e/copilotkit.config.ts"],
  { PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright-copilotkit.json` },
);
const copilotkit = readJson(`${out}/playwright-copilotkit.json`);
if (copilotkit?.stats) {
  totals.passed += copilotkit.stats.expected + copilotkit.stats.flaky;
  totals.failed += copilotkit.stats.unexpected;
  totals.skipped += copilotkit.stats.skipped;
  if (copilotkitStatus !== 0 && copilotkit.stats.unexpected === 0) totals.failed += 1;
} else {
  totals.failed += 1;
}

console.log(`\n(${Math.round((Date.now() - started) / 1000)} s)`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
