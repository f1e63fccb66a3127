import { defineConfig } from "tsdown";
import { packageBuild } from "../../scripts/package-build.ts";

export default defineConfig(packageBuild({ index: "src/index.ts" }));
