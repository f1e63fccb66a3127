import { defineConfig } from "tsdown";
import { packageBuild } from "../../scripts/package-build.ts";

// A Node program and library: `node:` built-ins are the platform's.
export default defineConfig({
  ...packageBuild({ index: "src/index.ts", cli: "src/cli.ts", postgres: "src/postgres.ts" }),
  platform: "node",
});
