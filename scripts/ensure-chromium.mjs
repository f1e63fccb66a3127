// Playwright must never download a browser here: Debian's Chromium is the one we test on.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function ensureChromium() {
  if (existsSync(chromium)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${chromium} is missing; install Debian's chromium package (apt-get install chromium).`);
  }
  console.log("Installing Debian's Chromium (apt-get install chromium)…");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
    shell: "/bin/bash",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureChromium();
