// Runs a benchmark inside real Chromium: the page entry is bundled with esbuild
// (the code under test, exactly as an app would ship it: split at its dynamic
// imports, so the sending tab's chunk is fetched as in an app), served from
// node:http, and opened with Debian's Chromium through Playwright.
//
// Two things make the page measure what a user's browser does:
// - a persistent profile in a fresh temp dir, so IndexedDB lives on disk and a
//   strict-durability commit really waits for the flush (a Playwright incognito
//   context keeps IndexedDB in memory, where strict and relaxed cost the same);
// - COOP/COEP headers, so the page is cross-origin isolated and `performance.now()`
//   ticks in 5 µs instead of 100 µs steps.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type BrowserContext, chromium, type Page } from "playwright";
import { chromiumArgs, chromiumExecutablePath } from "../../e2e/chromium.ts";
import { benchPort, PortOffset } from "./ports.ts";

export interface BenchPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Chromium's version, e.g. `156.0.8078.108`. */
  readonly version: string;
  /** Where the page is served: `page.goto(url)` or `page.reload()` to start over. */
  readonly url: string;
  close(): Promise<void>;
}

const HTML =
  '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bench.js"></script>';

const ISOLATION_HEADERS = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
  "cross-origin-resource-policy": "same-origin",
};

/** Where esbuild is told to write; nothing is written, the paths only name the files served. */
const OUTDIR = "/bench-page";

/** Bundles `entry` (a path relative to bench/pages/) and opens it on a fresh on-disk profile. */
export async function openBenchPage(entry: string, extraArgs: readonly string[] = []): Promise<BenchPage> {
  const bundled = await build({
    entryPoints: { bench: fileURLToPath(new URL(`../pages/${entry}`, import.meta.url)) },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // BENCH_PAGE_MINIFY=0 keeps names readable in a DevTools profile.
    minify: process.env.BENCH_PAGE_MINIFY !== "0",
    splitting: true,
    outdir: OUTDIR,
    write: false,
  });
  // Served by path: /bench.js and its chunks (the sending code, the schemas, the validator).
  const scripts = new Map(
    bundled.outputFiles.map((file) => [
      file.path.slice(file.path.indexOf(OUTDIR) + OUTDIR.length),
      file.text,
    ]),
  );
  if (!scripts.has("/bench.js")) throw new Error(`esbuild produced nothing for ${entry}`);
  const server: Server = createServer((req, res) => {
    const script = scripts.get(req.url ?? "");
    if (script !== undefined) {
      // The page's entry is fetched anew on every reload. Its chunks are named by
      // their content's hash and served as an app's hashed assets are (cached for
      // good), unless BENCH_CHUNK_CACHE=0 makes every reload fetch them again too.
      const hashed = req.url !== "/bench.js" && process.env.BENCH_CHUNK_CACHE !== "0";
      res.writeHead(200, {
        ...ISOLATION_HEADERS,
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-store",
      });
      res.end(script);
      return;
    }
    res.writeHead(200, {
      ...ISOLATION_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    });
    res.end(HTML);
  });
  await new Promise<void>((resolve) => server.listen(benchPort(PortOffset.page), "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const profile = await mkdtemp(join(tmpdir(), "agui-outbox-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutablePath,
    args: [...chromiumArgs, ...extraArgs],
    headless: true,
  });
  const close = async () => {
    await context.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => console.error(`   [page] ${error.message}`));
    await gotoReady(page, url);
    const isolated = await page.evaluate(() => globalThis.crossOriginIsolated);
    if (!isolated) throw new Error("the bench page is not cross-origin isolated (timers would be coarse)");
    // The user agent string is frozen at `156.0.0.0`; the browser itself knows.
    const cdp = await context.newCDPSession(page);
    const { product } = await cdp.send("Browser.getVersion");
    await cdp.detach();
    const version = product.replace(/^\D*\//, "");
    return { page, context, version, url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Loads (or reloads) the page and waits until its module has run. */
export async function gotoReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as { benchReady?: boolean }).benchReady === true);
}
