// The mock server as `npm run demo` and `npm run example:copilotkit` start it, each over a
// file store of its own: one app's ledger never lists the other's executions.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));

/** The mock's environment for `app` on `port`; `MOCK_STORE` and `MOCK_DATA` set in `env` win. */
export function mockEnv(app, port, env = process.env) {
  return {
    ...env,
    PORT: port,
    MOCK_STORE: env.MOCK_STORE ?? "file",
    MOCK_DATA: env.MOCK_DATA ?? `${repo}.mock-data/${app}/state.json`,
  };
}

/** Starts the mock's supervisor (packages/mock-server/src/cli.ts), which restarts it after a crash fault. */
export function startMock(app, port, env = process.env) {
  return spawn(
    `${repo}node_modules/.bin/tsx`,
    ["--conditions=@agui-outbox/source", `${repo}packages/mock-server/src/cli.ts`],
    { cwd: repo, stdio: "inherit", env: mockEnv(app, port, env) },
  );
}
