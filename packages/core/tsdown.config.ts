import { defineConfig } from "tsdown";
import { packageBuild } from "../../scripts/package-build.ts";

export default defineConfig(
  packageBuild({
    index: "src/index.ts",
    protocol: "src/protocol/public.ts",
    validator: "src/answer/validate-answer.ts",
    sealing: "src/sealing.ts",
    testing: "testing/index.ts",
    "verdict-table": "src/verdict-table.ts",
    internal: "src/internal.ts",
  }),
);
