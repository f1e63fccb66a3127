// One launch recipe for Debian's Chromium, shared by Vitest browser mode and Playwright.
// The networking flags stop Chromium from dialling hosts this machine cannot reach.
export const chromiumExecutablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumArgs: string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
