// Runs a benchmark inside real Chromium: the page entry is bundled with esbuild
// (the code under test, exactly as an app would ship it), served from node:http on
// an ephemeral port, and opened with Debian's Chromium through Playwright.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright";
import { chromiumArgs, chromiumExecutablePath } from "../../e2e/chromium.ts";

export interface BenchPage {
  readonly page: Page;
  readonly browser: Browser;
  /** Where the page is served: `page.goto(url)` or `page.reload()` to start over. */
  readonly url: string;
  close(): Promise<void>;
}

const HTML =
  '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bench.js"></script>';

/** Bundles `entry` (a path relative to bench/pages/) and opens it in a fresh browser. */
export async function openBenchPage(entry: string): Promise<BenchPage> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL(`../pages/${entry}`, import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // BENCH_PAGE_MINIFY=0 keeps names readable in a DevTools profile.
    minify: process.env.BENCH_PAGE_MINIFY !== "0",
    write: false,
  });
  const script = bundled.outputFiles[0]?.text;
  if (script === undefined) throw new Error(`esbuild produced nothing for ${entry}`);
  const server: Server = createServer((req, res) => {
    if (req.url === "/bench.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(script);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error(`   [page] ${error.message}`));
  await gotoReady(page, url);
  return {
    page,
    browser,
    url,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Loads (or reloads) the page and waits until its module has run. */
export async function gotoReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as { benchReady?: boolean }).benchReady === true);
}
