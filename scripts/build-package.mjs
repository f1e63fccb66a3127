// Builds the package in the working directory from its tsdown config. Through tsdown's
// API, not its CLI: the CLI prints a Node 20 deprecation line on every run although the
// pinned 0.21 supports Node 20 (docs/decisions.md, "Node 20 and tsdown").
import { build } from "tsdown";

await build({});
