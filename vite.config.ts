import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defaultClientConditions, defaultServerConditions, type ProxyOptions } from "vite";
import { defineConfig } from "vitest/config";
import { chromiumArgs, chromiumExecutablePath } from "./e2e/chromium.ts";
import { portsFromEnv } from "./e2e/support/free-ports.ts";

// Vitest resolves globs against `root`; the root is the demo app, so every path
// below is absolute (see TOOLCHAIN.md).
const repo = fileURLToPath(new URL(".", import.meta.url));
// React 18.3 for the hooks' suite on the oldest React the peer range allows
// (installed by the scripts/react-18 workspace).
const react18 = `${repo}scripts/react-18/node_modules/`;
const mockPort = Number(process.env.MOCK_PORT ?? 8787);

// The dev server settings are for the demo only: Vitest's browser mode runs its own
// server, which must not inherit the fixed port or the proxy. `npm run demo` and the
// end-to-end tests serve the production build with `vite preview` (same port and
// proxy): the dev server's React refresh preamble is an inline script, which the
// demo's Content-Security-Policy refuses.

// A stream the mock server cuts (a `mid-stream` drop, a crash) must reach the browser as
// a cut stream. The proxy otherwise leaves the browser's response open, and the client
// would only notice at its 45 s stall watchdog.
const proxyTo = (port: number): ProxyOptions => ({
  target: `http://127.0.0.1:${port}`,
  changeOrigin: false,
  configure(proxy) {
    proxy.on("proxyRes", (upstream, _request, response) => {
      upstream.on("close", () => {
        if (!upstream.complete) response.destroy();
      });
    });
  },
});
const proxyToMock = proxyTo(mockPort);
// `npm run demo -- --peer …`: the gateway serves /agent, the real peer keeps the ledger and chaos controls.
const proxyToControls = proxyTo(Number(process.env.CONTROL_PORT ?? mockPort));

const demoServer = {
  port: Number(process.env.DEMO_PORT ?? 5173),
  strictPort: true,
  proxy: { "/agent": proxyToMock, "/__": proxyToControls },
};

// Each browser project's server on a port free now (Vitest's default, 63315 and up, is
// shared by every run on the machine), on the address the browser is sent to.
const browserPorts = process.env.VITEST
  ? portsFromEnv(["VITEST_BROWSER_PORT", "VITEST_BROWSER_REACT18_PORT"])
  : { VITEST_BROWSER_PORT: 0, VITEST_BROWSER_REACT18_PORT: 0 };
const browserApi = (port: number) => ({ host: "127.0.0.1", port });

// Inside the workspace the packages resolve to their TypeScript sources (the
// `@agui-outbox/source` export condition): no build step in the inner loop. What an
// app installs resolves to dist/ (see scripts/package-build.ts).
const SOURCE_CONDITION = "@agui-outbox/source";

export default defineConfig({
  root: `${repo}demo`,
  plugins: [react()],
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
  ...(process.env.VITEST ? {} : { server: demoServer, preview: demoServer }),
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          root: repo,
          include: [
            "packages/*/src/**/*.test.{ts,tsx}",
            "packages/*/test/**/*.test.{ts,tsx}",
            "e2e/soak/**/*.test.ts",
            "scripts/*.test.mjs",
          ],
          exclude: ["**/*.browser.test.{ts,tsx}", "**/node_modules/**"],
          setupFiles: [`${repo}packages/core/test/setup-node.ts`],
          environment: "node",
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // Pre-bundled up front: when Vite discovers React mid-run it bundles it twice
        // and hooks see two copies of React on the first run.
        optimizeDeps: {
          include: [
            "react",
            "react/jsx-dev-runtime",
            "react/jsx-runtime",
            "react-dom",
            "react-dom/client",
            "@testing-library/react",
            "@tanstack/react-query",
            "zustand",
          ],
        },
        test: {
          name: "browser",
          root: repo,
          include: [
            "packages/*/src/**/*.browser.test.{ts,tsx}",
            "packages/*/test/**/*.browser.test.{ts,tsx}",
          ],
          testTimeout: 20_000,
          browser: {
            api: browserApi(browserPorts.VITEST_BROWSER_PORT),
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: chromiumExecutablePath,
                args: chromiumArgs.filter((arg) => arg !== "--headless"),
              },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^react(\/.*)?$/, replacement: `${react18}react$1` },
            { find: /^react-dom(\/.*)?$/, replacement: `${react18}react-dom$1` },
          ],
        },
        // Its own pre-bundle, with everything the hooks import listed up front: a
        // dependency discovered mid-run makes Vite re-bundle and reload the page, which
        // closes the browser connection of a fresh clone's first run.
        cacheDir: `${repo}node_modules/.vite/browser-react18`,
        optimizeDeps: {
          include: [
            "react",
            "react/jsx-dev-runtime",
            "react/jsx-runtime",
            "react-dom",
            "react-dom/client",
            "@testing-library/react",
            "@tanstack/react-query",
            "zustand",
          ],
        },
        test: {
          name: "browser-react18",
          root: repo,
          include: ["packages/react/src/hooks.browser.test.tsx", "packages/react/src/use-*.browser.test.tsx"],
          testTimeout: 20_000,
          browser: {
            api: browserApi(browserPorts.VITEST_BROWSER_REACT18_PORT),
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: chromiumExecutablePath,
                args: chromiumArgs.filter((arg) => arg !== "--headless"),
              },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
