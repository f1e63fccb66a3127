// Installs the CopilotKit example's own dependencies (examples/copilotkit, outside the
// workspace: CopilotKit brings ~900 packages the SDK does not need) when they are
// missing or older than its lockfile. Returns undefined when installed, else why not.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
export const exampleDir = `${repo}examples/copilotkit`;
const installed = `${exampleDir}/node_modules/.package-lock.json`;
const lock = `${exampleDir}/package-lock.json`;

export function ensureCopilotKitExample() {
  const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs;
  if (!stale) return undefined;
  console.log("Installing the CopilotKit example's dependencies (npm ci in examples/copilotkit)…");
  try {
    // No install scripts: the only one in the tree is a telemetry ping (@scarf/scarf).
    execSync("npm ci --no-audit --no-fund --prefer-offline --ignore-scripts", {
      cwd: exampleDir,
      stdio: "inherit",
    });
    return undefined;
  } catch {
    return "CopilotKit example not installed (npm ci in examples/copilotkit failed)";
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reason = ensureCopilotKitExample();
  if (reason) {
    console.error(reason);
    process.exit(1);
  }
}
