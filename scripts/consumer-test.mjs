// Consumer tests: the packages as an app installs them from npm, outside this workspace.
// Builds and packs @agui-outbox/core, @agui-outbox/background and @agui-outbox/react (and @agui-outbox/conformance,
// run with npx against the mock: scripts/consumer-conformance.mjs), checks the tarballs
// (contents, publint, arethetypeswrong), installs them into fresh apps in a temp dir,
// imports every entry from Node (SSR-safe), type-checks a consumer under NodeNext and
// Bundler resolution, builds a Vite + React 18.3 app and a Vite + React 19 app with no
// special config, bundles the README's typical app as one esbuild file and prints its
// size, and answers an approval in Chromium against the mock server:
// the card says applied and the ledger holds exactly one execution.
// Run: node scripts/consumer-test.mjs (part of `npm test`). Only the npm registry is
// reached (the installs). Ports: CONSUMER_MOCK_PORT, CONSUMER_APP_PORT (+1 for the second
// app); free ones when unset, so two runs on one machine never meet.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { conformanceFromTarball } from "./consumer-conformance.mjs";
import { freePort } from "./free-port.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => `${repo}node_modules/.bin/${name}`;

const mockPort = Number(process.env.CONSUMER_MOCK_PORT ?? (await freePort()));
/** The port of the `index`th app's preview. */
const appPort = async (index) =>
  process.env.CONSUMER_APP_PORT ? Number(process.env.CONSUMER_APP_PORT) + index : await freePort();
const PACKAGES = ["core", "background", "react"];
// The launch recipe of e2e/chromium.ts (Debian's Chromium, no network chatter).
const chromiumExecutablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), "agui-outbox-consumer-"));
const servers = [];
const results = [];

// What a consumer's shell has: none of the workspace's source condition.
const consumerEnv = { ...process.env };
delete consumerEnv.NODE_OPTIONS;
for (const key of Object.keys(consumerEnv)) if (key.startsWith("npm_")) delete consumerEnv[key];

/** Runs a command; resolves with its output, rejects with it on a non-zero exit. */
function exec(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: consumerEnv, ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}\n${output}`)),
    );
  });
}

/** Starts a long-running server in its own process group and waits for its URL to answer. */
async function serve(label, command, args, url, options = {}) {
  const child = spawn(command, args, { env: consumerEnv, ...options, detached: true, stdio: "ignore" });
  servers.push(child);
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${label} exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${label} did not answer at ${url}`);
}

async function check(label, run) {
  const at = Date.now();
  try {
    await run();
    results.push({ label, ok: true });
    console.log(`  ✓ ${label} (${((Date.now() - at) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ label, ok: false });
    console.log(`  ✗ ${label}\n${String(error?.stack ?? error).replace(/^/gm, "      ")}`);
  }
}

const APP_VERSIONS = {
  react18: {
    react: "18.3.1",
    "react-dom": "18.3.1",
    "@types/react": "18.3.32",
    "@types/react-dom": "18.3.7",
  },
  react19: { react: "19.3.1", "react-dom": "19.3.1", "@types/react": "19.3.3", "@types/react-dom": "19.3.0" },
};

const MAIN_TSX = `import { createOutboxClient } from "@agui-outbox/core";
import { DefaultApprovalCard, OutboxProvider, useApproval, useApprovals, useThread } from "@agui-outbox/react";
import "@agui-outbox/react/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const threadId = new URLSearchParams(location.hash.slice(1)).get("thread") ?? "consumer";
const client = createOutboxClient({ url: "/agent", namespace: "consumer" });

function Verdict(props: { interruptId: string }) {
  const approval = useApproval(threadId, props.interruptId);
  return <p data-testid="consumer-state">{approval.entry?.state ?? "unanswered"}</p>;
}

function App() {
  const thread = useThread(threadId);
  const approvals = useApprovals(threadId);
  return (
    <main>
      <button type="button" onClick={() => void thread.send("please deploy to prod")}>Send</button>
      {approvals.map(({ interruptId }) => (
        <div key={interruptId}>
          <DefaultApprovalCard threadId={threadId} interruptId={interruptId} />
          <Verdict interruptId={interruptId} />
        </div>
      ))}
    </main>
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<StrictMode><OutboxProvider client={client}><App /></OutboxProvider></StrictMode>);
`;

// Every entry, from a TypeScript consumer: values and types.
const CONSUMER_TS = `import { type BackgroundRunRecord, backgroundRuns } from "@agui-outbox/background";
import { createOutboxClient, EntryState, loadAnswerValidator, type OutboxEntry } from "@agui-outbox/core";
import { AgentRoute, type Message } from "@agui-outbox/core/protocol";
import { InMemoryLockManager } from "@agui-outbox/core/testing";
import { checkAnswer } from "@agui-outbox/core/validator";
import { verdictTableMarkdown } from "@agui-outbox/core/verdict-table";
import { DefaultApprovalCard, OutboxProvider, useApproval, useBackgroundRuns, type UseThreadResult } from "@agui-outbox/react";
import { inspectorReport, OutboxDevtools } from "@agui-outbox/react/devtools";

const state: OutboxEntry["state"] = EntryState.applied;
const message: Message | undefined = undefined;
const thread: UseThreadResult | undefined = undefined;
const background = backgroundRuns();
export const client = createOutboxClient({ url: "/agent", namespace: "consumer", plugins: [background] });
export const useRuns = (): readonly BackgroundRunRecord[] => useBackgroundRuns(background).runs;
export const used = [createOutboxClient, loadAnswerValidator, AgentRoute, InMemoryLockManager, checkAnswer,
  verdictTableMarkdown, DefaultApprovalCard, OutboxProvider, useApproval, OutboxDevtools, inspectorReport, state,
  message, thread];
`;

const NODE_IMPORTS = `const entries = ["@agui-outbox/core", "@agui-outbox/core/protocol", "@agui-outbox/core/validator",
  "@agui-outbox/core/testing", "@agui-outbox/core/verdict-table", "@agui-outbox/background", "@agui-outbox/react",
  "@agui-outbox/react/devtools"];
for (const entry of entries) {
  const module = await import(entry);
  if (Object.keys(module).length === 0) throw new Error(entry + " has no exports");
}
if (typeof (await import("@agui-outbox/core")).createOutboxClient !== "function") throw new Error("no createOutboxClient");
console.log("imported", entries.length, "entries");
`;

function tsconfig(resolution) {
  const module = resolution === "NodeNext" ? "NodeNext" : "ESNext";
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module,
      moduleResolution: resolution,
      strict: true,
      noEmit: true,
      // Our declarations are checked too: a broken import in dist/*.d.ts fails here.
      skipLibCheck: false,
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      types: [],
      jsx: "react-jsx",
    },
    files: ["consumer.ts"],
  });
}

function writeApp(name, tarballs) {
  const dir = join(work, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  const versions = APP_VERSIONS[name];
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: `consumer-${name}`,
      private: true,
      type: "module",
      dependencies: {
        "@agui-outbox/background": `file:${tarballs.background}`,
        "@agui-outbox/core": `file:${tarballs.core}`,
        "@agui-outbox/react": `file:${tarballs.react}`,
        "@tanstack/react-query": "5.108.4",
        react: versions.react,
        "react-dom": versions["react-dom"],
      },
      devDependencies: {
        "@types/react": versions["@types/react"],
        "@types/react-dom": versions["@types/react-dom"],
        "@vitejs/plugin-react": "6.3.0",
        typescript: "6.0.3",
        vite: "8.3.8",
      },
      overrides: { vite: "$vite" },
    }),
  );
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>consumer</title>' +
      '<link rel="icon" href="data:,"></head>' +
      '<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
  );
  writeFileSync(join(dir, "src/main.tsx"), MAIN_TSX);
  // The plugin and where the preview forwards the agent's routes: nothing that
  // concerns how the packages resolve (no dedupe, no alias, no optimizeDeps).
  writeFileSync(
    join(dir, "vite.config.js"),
    `import react from "@vitejs/plugin-react";
export default { plugins: [react()], preview: { proxy: { "/agent": "http://127.0.0.1:${mockPort}" } } };
`,
  );
  writeFileSync(join(dir, "consumer.ts"), CONSUMER_TS);
  writeFileSync(join(dir, "tsconfig.nodenext.json"), tsconfig("NodeNext"));
  writeFileSync(join(dir, "tsconfig.bundler.json"), tsconfig("Bundler"));
  writeFileSync(join(dir, "node-imports.mjs"), NODE_IMPORTS);
  return dir;
}

/**
 * The README's typical app (client, provider, useThread, useApproval, the default card)
 * from the installed tarballs as one minified esbuild file, no chunks: what an app
 * that cannot split ships. React and React Query are the app's own (as in bench/).
 */
async function typicalAppAsOneFile(dir) {
  const source = [
    'export { createOutboxClient } from "@agui-outbox/core";',
    'export { DefaultApprovalCard, OutboxProvider, useApproval, useThread } from "@agui-outbox/react";',
  ].join("\n");
  writeFileSync(join(dir, "typical-app.js"), source);
  const out = join(dir, "typical-app.bundle.js");
  const peers = ["react", "react-dom", "react/jsx-runtime", "@tanstack/react-query"];
  await exec(
    bin("esbuild"),
    [
      "typical-app.js",
      "--bundle",
      "--minify",
      "--format=esm",
      "--platform=browser",
      "--loader:.css=empty",
      `--define:process.env.NODE_ENV="production"`,
      ...peers.map((name) => `--external:${name}`),
      `--outfile=${out}`,
      "--log-level=warning",
    ],
    { cwd: dir },
  );
  const code = readFileSync(out);
  return { minified: code.length, gzip: gzipSync(code).length };
}

async function answerInBrowser(browser, name, port) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  const threadId = `consumer-${name}-${Date.now()}`;
  try {
    await page.goto(`http://127.0.0.1:${port}/#thread=${threadId}`);
    await page.getByRole("button", { name: "Send" }).click();
    const card = page.getByTestId("approval-card");
    await card.getByRole("heading", { name: "Deploy to prod?" }).waitFor({ timeout: 30_000 });
    await card.getByTestId("approve").click();
    await page
      .getByTestId("consumer-state")
      .filter({ hasText: /^applied$/ })
      .waitFor({ timeout: 30_000 });
    const status = await card.getByTestId("approval-status").textContent();
    if (status !== "Applied.") throw new Error(`card says ${JSON.stringify(status)}`);
    const ledger = await (
      await fetch(`http://127.0.0.1:${mockPort}/__ledger?threadId=${encodeURIComponent(threadId)}`)
    ).json();
    if (ledger.executions.length !== 1)
      throw new Error(`ledger holds ${ledger.executions.length} executions`);
    if (problems.length > 0) throw new Error(`page errors:\n${problems.join("\n")}`);
  } catch (error) {
    throw new Error(`${String(error?.message ?? error)}\npage errors: ${problems.join("\n") || "none"}`);
  } finally {
    await page.close();
  }
}

async function main() {
  console.log(`consumer tests in ${work}`);
  const tarballs = {};
  await check("the packages build (tsdown)", () =>
    Promise.all(PACKAGES.map((name) => exec(bin("tsdown"), [], { cwd: `${repo}packages/${name}` }))),
  );
  await check("npm pack ships only dist/, README.md, LICENSE and package.json", async () => {
    const packed = JSON.parse(
      await exec(
        "npm",
        [
          "pack",
          "--ignore-scripts",
          "--json",
          "--pack-destination",
          work,
          ...PACKAGES.flatMap((name) => ["-w", `@agui-outbox/${name}`]),
        ],
        { cwd: repo },
      ),
    );
    for (const [index, name] of PACKAGES.entries()) {
      const files = packed[index].files.map((file) => file.path);
      const stray = files.filter((path) => !/^(dist\/.+|README\.md|LICENSE|package\.json)$/.test(path));
      if (stray.length > 0) throw new Error(`@agui-outbox/${name} also ships ${stray.join(", ")}`);
      if (!files.includes("LICENSE") || !files.includes("README.md"))
        throw new Error(`${name}: no LICENSE or README`);
      tarballs[name] = join(work, packed[index].filename);
    }
  });
  if (Object.keys(tarballs).length !== PACKAGES.length) return;

  const apps = { react18: writeApp("react18", tarballs), react19: writeApp("react19", tarballs) };
  const installs = Promise.all(
    Object.values(apps).map((dir) =>
      exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: dir,
      }),
    ),
  );
  await check("publint --strict and attw (ESM only) are clean for every tarball", () =>
    Promise.all(
      Object.values(tarballs).flatMap((tarball) => [
        exec(bin("publint"), [tarball, "--strict"]).then((output) => {
          if (!/All good!/.test(output)) throw new Error(output);
        }),
        // The stylesheet export has no types to check.
        exec(bin("attw"), [tarball, "--profile", "esm-only", "--exclude-entrypoints", "styles.css"]),
      ]),
    ),
  );
  let installed = false;
  await check("the tarballs install into a Vite + React 18.3 app and a Vite + React 19 app", async () => {
    await installs;
    installed = true;
  });
  if (!installed) return;

  for (const [name, dir] of Object.entries(apps)) {
    await check(`${name}: every entry imports in Node (ESM, no DOM)`, () =>
      exec("node", ["node-imports.mjs"], { cwd: dir }),
    );
  }
  // The declarations are the same in both apps: one type-checks them (with React 19's types).
  await Promise.all(
    ["nodenext", "bundler"].map((resolution) =>
      check(`a TypeScript consumer compiles under ${resolution} resolution`, () =>
        exec(join(apps.react19, "node_modules/.bin/tsc"), ["-p", `tsconfig.${resolution}.json`], {
          cwd: apps.react19,
        }),
      ),
    ),
  );
  await check("the typical app bundles as one esbuild file", async () => {
    const bytes = await typicalAppAsOneFile(apps.react19);
    console.log(`    typical app as one esbuild file: ${bytes.minified} B minified, ${bytes.gzip} B gzip`);
  });
  const built = [];
  for (const [name, dir] of Object.entries(apps)) {
    await check(`${name}: vite build with no special config`, async () => {
      await exec(join(dir, "node_modules/.bin/vite"), ["build", "--logLevel", "warn"], { cwd: dir });
      built.push(name);
    });
  }
  if (built.length === 0) return;

  await serve(
    "mock server",
    bin("tsx"),
    ["--conditions=@agui-outbox/source", `${repo}packages/mock-server/src/cli.ts`],
    `http://127.0.0.1:${mockPort}/agent/capabilities`,
    { env: { ...consumerEnv, PORT: String(mockPort) }, cwd: repo },
  );
  await check("@agui-outbox/conformance: a clean tarball whose npx CLI passes every check on the mock", () =>
    conformanceFromTarball({
      repo,
      work,
      exec,
      coreTarball: tarballs.core,
      mockUrl: `http://127.0.0.1:${mockPort}`,
    }),
  );
  const { chromium } = await import("playwright");
  const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
  try {
    for (const [index, name] of built.entries()) {
      const port = await appPort(index);
      await check(
        `${name}: in Chromium, an approval answered against the mock server is applied, ledger 1`,
        async () => {
          await serve(
            `${name} preview`,
            join(apps[name], "node_modules/.bin/vite"),
            ["preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"],
            `http://127.0.0.1:${port}/`,
            { cwd: apps[name] },
          );
          await answerInBrowser(browser, name, port);
        },
      );
    }
  } finally {
    await browser.close();
  }
}

try {
  await main();
} finally {
  for (const server of servers) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
}
const failed = results.filter((result) => !result.ok).length;
console.log(
  `consumer tests: ${results.length - failed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`,
);
mkdirSync(`${repo}.test-output`, { recursive: true });
writeFileSync(
  `${repo}.test-output/consumer.json`,
  JSON.stringify({ passed: results.length - failed, failed, results }),
  { flag: "w" },
);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
