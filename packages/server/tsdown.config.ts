import { defineConfig } from "tsdown";
import { packageBuild } from "../../scripts/package-build.ts";

// A Node library: `node:` built-ins are the platform's, not dependencies to resolve.
export default defineConfig({
  ...packageBuild({
    index: "src/index.ts",
    postgres: "src/store/postgres/index.ts",
  }),
  platform: "node",
});
