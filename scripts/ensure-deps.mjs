// Installs the workspace's dependencies when they are missing or older than the lockfile,
// so `npm test` and `npm run demo` work on a fresh clone with no other step.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const installed = `${repo}node_modules/.package-lock.json`;
const lock = `${repo}package-lock.json`;

export function ensureDependencies() {
  const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs;
  if (!stale) return;
  console.log("Installing dependencies (npm ci)…");
  execSync("npm ci --no-audit --no-fund", { cwd: repo, stdio: "inherit" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
