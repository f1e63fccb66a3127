#!/usr/bin/env node
import { runCli } from "./run-cli";

runCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => {
    // exitCode, not exit(): stdout may still be draining into a pipe.
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`agui-outbox-conformance: ${String(error)}`);
    process.exitCode = 2;
  },
);
